/*
 * ws_gpgpusim_yaml: the imported config as YAML text, its check through
 * the config loader, and the entry points of the translation (see
 * ws_gpgpusim.h).
 *
 * The text has every key of the schema in its order, as "config show"
 * prints them, each with a comment naming where its value came from, then
 * the closing list of the options read that no key's comment names, each
 * with its reason (so every option read is named somewhere).  Before the
 * text is handed back it is loaded exactly as --gpu would load it (a
 * temporary file in a private folder), so the cross-key rules of
 * ws_cfg_check.c judge it; a refusal is traced from the YAML line back to
 * the option that produced the key (for a key the base gave, the option
 * behind another key the refusal names), and reported there.  A text
 * longer than the loader reads (WS_CFG_MAX_FILE) is refused before that,
 * at the first option of the closing list, the part that grows with the
 * input.
 *
 * Leaves out: where the text goes (the command writes it, ws_output.h).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config/ws_cfg_schema.h"
#include "ws_gpgpusim_int.h"
#include "util/ws_clip.h"

/* Column of the comments, as in configs/v100.yaml. */
#define WS_GS_COMMENT_COL 29
#define WS_GS_WIDTH 79

int ws_gs_set(struct ws_gs_map *m, const char *key,
              const struct ws_gpgpusim_opt *o, size_t off, const char *value,
              const char *fmt, ...)
{
    long k = ws_cfg_key_find(key);
    const char *expected;
    va_list ap;

    if (k < 0) {
        ws_err_msg(m->err,
                   "config import: no key %s (expected one of the "
                   "schema's)",
                   key);
        m->err->internal = 1;
        return -1;
    }
    if (ws_cfg_key_parse(ws_cfg_key((size_t)k), &m->out, value, &expected)
        < 0) {
        if (o)
            return ws_gpgpusim_err(m->err, o, off,
                                   "translates to %s %s "
                                   "(expected %s)",
                                   key, value, expected);
        return ws_err_at(m->err, m->first_file, 1, 1,
                         "translates to %s %s "
                         "(expected %s)",
                         key, value, expected);
    }
    va_start(ap, fmt);
    vsnprintf(m->key[k].why, sizeof m->key[k].why, fmt, ap);
    va_end(ap);
    m->key[k].set = 1;
    m->key[k].opt = o;
    m->key[k].off = off;
    return 0;
}

void ws_gs_quote(char *buf, size_t cap, const char *text, size_t max)
{
    size_t n = 0;

    for (; *text && n + 4 < cap; text++) {
        if (n == max) {
            memcpy(buf + n, "...", 3);
            n += 3;
            break;
        }
        buf[n++] = *text >= 0x20 && *text < 0x7f ? *text : '?';
    }
    buf[n] = '\0';
}

void ws_gs_note(struct ws_gs_map *m, const char *fmt, ...)
{
    char line[512];
    size_t n;
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    n = strlen(line);
    if (m->notes_len + n + 2 > m->notes_cap) {
        size_t cap = (m->notes_cap + n + 2) * 2;
        char *p = realloc(m->notes, cap);
        if (!p) {
            m->oom = 1;
            return;
        }
        m->notes = p;
        m->notes_cap = cap;
    }
    memcpy(m->notes + m->notes_len, line, n);
    m->notes_len += n;
    m->notes[m->notes_len++] = '\n';
    m->notes[m->notes_len] = '\0';
}

/* ---- writing ------------------------------------------------------------- */

struct ws_gs_out {
    FILE *fp;
    long line;     /* lines written so far */
    size_t listed; /* options in the closing list */
    const struct ws_gpgpusim_opt *first_listed;
};

/* Where to cut text so that at most room bytes stay on this line: the
 * last blank before room; a word longer than that (a packed option value)
 * overflows the line rather than being split. */
static size_t ws_gs_cut(const char *text, size_t room)
{
    size_t n = strlen(text), cut;

    if (n <= room)
        return n;
    for (cut = room; cut > 0 && text[cut] != ' '; cut--)
        ;
    if (cut > 0)
        return cut;
    cut = strcspn(text, " ");
    return cut;
}

/* Writes text (one line, no newline) with comment from column col, the
 * comment wrapped at WS_GS_WIDTH onto lines of its own at that column. */
static void ws_gs_put(struct ws_gs_out *w, const char *text, size_t col,
                      const char *comment)
{
    size_t len = strlen(text), at = len < col ? col : len + 1;
    size_t room = WS_GS_WIDTH > at + 26 ? WS_GS_WIDTH - at - 2 : 24;
    int first = 1;

    fputs(text, w->fp);
    if (!*comment) {
        fputc('\n', w->fp);
        w->line++;
    }
    while (*comment) {
        size_t cut = ws_gs_cut(comment, room);
        fprintf(w->fp, "%*s# %.*s\n", (int)(first ? at - len : at), "",
                (int)cut, comment);
        w->line++;
        comment += cut;
        while (*comment == ' ')
            comment++;
        first = 0;
    }
}

/* A comment-block entry: head, then text wrapped with an indent. */
static void ws_gs_entry(struct ws_gs_out *w, const char *head, const char *text)
{
    char full[800];
    const char *p = full;
    int first = 1;

    snprintf(full, sizeof full, "%s%s%s", head, *head ? " " : "", text);
    while (*p) {
        const char *prefix = first ? "#   " : "#       ";
        size_t cut = ws_gs_cut(p, WS_GS_WIDTH - strlen(prefix));
        fprintf(w->fp, "%s%.*s\n", prefix, (int)cut, p);
        w->line++;
        p += cut;
        while (*p == ' ')
            p++;
        first = 0;
    }
}

static void ws_gs_line(struct ws_gs_out *w, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void ws_gs_line(struct ws_gs_out *w, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vfprintf(w->fp, fmt, ap);
    va_end(ap);
    fputc('\n', w->fp);
    w->line++;
}

static int ws_gs_depth(const char *path)
{
    int d = 0;

    for (; *path; path++)
        d += *path == '.';
    return d;
}

/* The mapping headers between the previous key and this one. */
static void ws_gs_groups(struct ws_gs_out *w, const char *prev,
                         const char *path)
{
    const char *p;
    int depth = ws_cfg_key_common_groups(prev, path, &p);

    if (depth == 0 && strchr(p, '.'))
        ws_gs_line(w, "%s", "");
    for (const char *dot; (dot = strchr(p, '.')); p = dot + 1, depth++)
        ws_gs_line(w, "%*s%.*s:", depth * 2, "", (int)(dot - p), p);
}

static void ws_gs_header(struct ws_gs_map *m, struct ws_gs_out *w)
{
    char f[2][120];

    for (int i = 0; i < 2; i++)
        ws_gs_quote(f[i], sizeof f[i], i < m->g->nfiles ? m->g->files[i] : "",
                    100);
    ws_gs_line(w, "# %s, translated by 'warpsim config import' from",
               m->out.name);
    ws_gs_line(w, "#   %s%s%s", f[0], m->g->nfiles > 1 ? " and " : "",
               m->g->nfiles > 1 ? f[1] : "");
    ws_gs_line(w, "#");
    ws_gs_line(w, "# Each value's comment names its source:");
    ws_gs_line(w, "#   -option value  the GPGPU-Sim / Accel-Sim option, "
                  "units converted");
    ws_gs_line(w, "#   default N      an option the input leaves out, at "
                  "GPGPU-Sim's default");
    ws_gs_line(w, "#   [RULE]         derived by the rule stated beside it");
    ws_gs_line(w,
               "#   [BASE %s]%*s no option gives it: kept from the "
               "config %s",
               m->base_name,
               (int)(strlen(m->base_name) < 7 ? 7 - strlen(m->base_name) : 0),
               "", m->base_name);
    ws_gs_line(w, "#                  (the built-in nearest this GPU's "
                  "sm_version, or --base)");
    ws_gs_line(w, "# Latencies are load-to-use SM core cycles, as in every "
                  "warpsim config.");
}

int ws_gs_key_shown(const struct ws_gs_map *m, size_t i)
{
    const struct ws_key *k = ws_cfg_key(i);

    return (k->type != WS_KT_SIZES || m->out.sm.ncarveouts > 0)
           && !ws_cfg_key_absent(k, &m->out);
}

static void ws_gs_keys(struct ws_gs_map *m, struct ws_gs_out *w)
{
    const char *prev = NULL;

    for (size_t i = 0; i < ws_cfg_key_count(); i++) {
        const struct ws_key *k = ws_cfg_key(i);
        const char *leaf = strrchr(k->path, '.');
        char value[256], text[320], why[480];
        if (!ws_gs_key_shown(m, i))
            continue;
        ws_gs_groups(w, prev, k->path);
        ws_cfg_key_format(k, &m->out, value, sizeof value);
        snprintf(text, sizeof text, "%*s%s: %s", ws_gs_depth(k->path) * 2, "",
                 leaf ? leaf + 1 : k->path, value);
        if (m->key[i].set)
            snprintf(why, sizeof why, "%s", m->key[i].why);
        else
            snprintf(why, sizeof why, "[BASE %s]%s%s", m->base_name,
                     m->key[i].why[0] ? " " : "", m->key[i].why);
        m->key[i].out_line = w->line + 1;
        ws_gs_put(w, text, WS_GS_COMMENT_COL, why);
        prev = k->path;
    }
}

/* A value an unused known option must still have the form of. */
static int ws_gs_check_type(struct ws_gs_map *m,
                            const struct ws_gpgpusim_opt *o,
                            enum ws_gpgpusim_type type)
{
    uint64_t u;
    int b;
    const char *s = o->value;

    switch (type) {
    case WS_GS_UINT:
        return ws_gpgpusim_uint(o, 0, UINT32_MAX, &u, m->err);
    case WS_GS_BOOL:
        return ws_gpgpusim_bool(o, &b, m->err);
    case WS_GS_INT:
        if (*s == '-' && s[1] >= '0' && s[1] <= '9') {
            struct ws_gpgpusim_opt pos = *o;
            pos.value = (char *)s + 1;
            return ws_gpgpusim_uint(&pos, 0, (uint64_t)INT32_MAX + 1, &u,
                                    m->err);
        }
        return ws_gpgpusim_uint(o, 0, INT32_MAX, &u, m->err);
    default:
        return 0;
    }
}

static int ws_gs_name_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
           || (c >= '0' && c <= '9') || c == '_';
}

/* Whether text names the option name whole: not as the start of a longer
 * name (-gpgpu_n_mem in -gpgpu_n_mem_per_ctrlr, -gpgpu_cache in
 * -gpgpu_cache:dl1), though a ':' or a blank may follow it. */
static int ws_gs_names(const char *text, const char *name)
{
    size_t n = strlen(name);

    for (const char *p = text; (p = strstr(p, name)) != NULL; p++) {
        const char *e = p + n;
        if (p > text && ws_gs_name_char(p[-1]))
            continue;
        if (ws_gs_name_char(*e) || (*e == ':' && ws_gs_name_char(e[1])))
            continue;
        return 1;
    }
    return 0;
}

/* Whether a written key's comment or a line of the notes names name. */
static int ws_gs_cited(const struct ws_gs_map *m, const char *name)
{
    for (size_t i = 0; i < ws_cfg_key_count(); i++)
        if (ws_gs_key_shown(m, i) && ws_gs_names(m->key[i].why, name))
            return 1;
    return m->notes && ws_gs_names(m->notes, name);
}

/* Every option read that no written comment names, in the order read:
 * those no rule used, and those a rule read without naming them in a
 * key's comment (so that the output accounts for every option). */
static int ws_gs_closing(struct ws_gs_map *m, struct ws_gs_out *w)
{
    int any = 0;

    for (size_t i = 0; i < m->g->n; i++) {
        const struct ws_gpgpusim_opt *o = &m->g->opt[i];
        const struct ws_gpgpusim_known *k = ws_gpgpusim_known(o->name);
        char name[80], value[72], line[400];
        const char *why;
        if (!o->last || (o->used && ws_gs_cited(m, o->name)))
            continue;
        if (!o->used && k && ws_gs_check_type(m, o, k->type) < 0)
            return -1;
        why = o->why        ? o->why
              : o->used     ? "read, but with the options given "
                              "no warpsim key comes from it"
              : k && k->why ? k->why
              : k           ? "not used with the options given"
                            : "unknown option: not a "
                              "GPGPU-Sim or Accel-Sim option this importer knows";
        if (!any++) {
            ws_gs_line(w, "%s", "");
            ws_gs_line(w, "# Options read that have no warpsim equivalent:");
            w->first_listed = o;
        }
        w->listed++;
        ws_gs_quote(name, sizeof name, o->name, 60);
        ws_gs_quote(value, sizeof value, o->value, 40);
        snprintf(line, sizeof line, "%s %s:", name, value);
        ws_gs_entry(w, line, why);
    }
    if (m->notes_len) {
        char *p = m->notes;
        ws_gs_line(w, "%s", "");
        ws_gs_line(w, "# Parts of translated options that warpsim does not "
                      "model:");
        while (*p) {
            char *nl = strchr(p, '\n');
            *nl = '\0';
            ws_gs_entry(w, "", p);
            *nl = '\n';
            p = nl + 1;
        }
    }
    return 0;
}

/* The loader reads no config past WS_CFG_MAX_FILE bytes, so a longer
 * translation could never be used with --gpu, and its check through the
 * loader would fail on the temporary file.  Only the closing list grows
 * with the input (an entry of some 90 bytes for each option of a few, so
 * ten thousand unknown options pass the cap): the error is at its first
 * option. */
static int ws_gs_too_long(struct ws_gs_map *m, const struct ws_gs_out *w,
                          size_t len)
{
    const struct ws_gpgpusim_opt *o = w->first_listed;
    struct ws_clip q;

    if (o)
        return ws_err_at(m->err, o->file, o->line, o->col,
                         "%s: the first "
                         "of %zu options listed as having no warpsim "
                         "equivalent, which make the translated config %zu "
                         "bytes (expected at most %u bytes, what --gpu "
                         "reads: fewer options warpsim has no use for)",
                         ws_clip(&q, o->name), w->listed, len, WS_CFG_MAX_FILE);
    return ws_err_at(m->err, m->first_file, 1, 1,
                     "translates to a config "
                     "of %zu bytes (expected at most %u bytes, what --gpu "
                     "reads)",
                     len, WS_CFG_MAX_FILE);
}

int ws_gs_write(struct ws_gs_map *m, char **yaml)
{
    size_t len;
    struct ws_gs_out w = {NULL, 0, 0, NULL};
    int rc;

    *yaml = NULL;
    w.fp = open_memstream(yaml, &len);
    if (!w.fp)
        return ws_err_oom(m->err);
    ws_gs_header(m, &w);
    ws_gs_keys(m, &w);
    rc = ws_gs_closing(m, &w);
    if (fclose(w.fp) != 0 || !*yaml) {
        free(*yaml);
        *yaml = NULL;
        return rc < 0 ? -1 : ws_err_oom(m->err);
    }
    if (rc == 0 && len > WS_CFG_MAX_FILE)
        rc = ws_gs_too_long(m, &w, len);
    if (rc < 0) {
        free(*yaml);
        *yaml = NULL;
    }
    return rc;
}

/* ---- the check through the loader --------------------------------------- */

/* A key other than skip that msg names and an option produced, or -1:
 * the loader blames the first key of a rule it names, which may be one
 * the base gave, while an option gave another. */
static long ws_gs_blame(const struct ws_gs_map *m, const char *msg, size_t skip)
{
    for (const char *p = msg; *p;) {
        size_t n = 0, len;
        char word[96];
        long k;
        while (p[n] && (ws_gs_name_char(p[n]) || p[n] == '.'))
            n++;
        if (n == 0) {
            p++;
            continue;
        }
        len = n < sizeof word - 1 ? n : sizeof word - 1;
        memcpy(word, p, len);
        while (len > 0 && word[len - 1] == '.') /* a sentence's end */
            len--;
        word[len] = '\0';
        k = ws_cfg_key_find(word);
        if (k >= 0 && (size_t)k != skip && m->key[k].opt)
            return k;
        p += n;
    }
    return -1;
}

/* The loader's refusal, "TMP:LINE:COL: message", moved to the option that
 * produced the key on LINE, or, for a key no option produced, to the one
 * that produced another key the message names; the first file's first
 * line when no option did. */
static int ws_gs_refused(struct ws_gs_map *m, const char *tmp,
                         const struct ws_err *e)
{
    size_t n = strlen(tmp);
    long line = 0;
    const char *msg = e->text;
    char *end;

    if (strncmp(e->text, tmp, n) == 0 && e->text[n] == ':') {
        line = strtol(e->text + n + 1, &end, 10);
        msg = strchr(end + 1, ' ');
        msg = msg ? msg + 1 : end;
    }
    for (size_t i = 0; line > 0 && i < ws_cfg_key_count(); i++) {
        const struct ws_gs_key *k = &m->key[i];
        const char *path = ws_cfg_key(i)->path;
        long j;
        if (k->out_line != line)
            continue;
        if (k->opt)
            return ws_gpgpusim_err(m->err, k->opt, k->off,
                                   "translated to %s, "
                                   "which warpsim refuses: %s",
                                   path, msg);
        j = ws_gs_blame(m, msg, i);
        if (j >= 0)
            return ws_gpgpusim_err(m->err, m->key[j].opt, m->key[j].off,
                                   "translated to %s, which warpsim refuses "
                                   "with %s %s%s: %s",
                                   ws_cfg_key((size_t)j)->path, path,
                                   k->set ? "from a rule"
                                          : "kept from the base ",
                                   k->set ? "" : m->base_name, msg);
        return ws_err_at(m->err, m->first_file, 1, 1,
                         "%s %s%s, which "
                         "warpsim refuses with the rest: %s",
                         path, k->set ? "from a rule" : "kept from the base ",
                         k->set ? "" : m->base_name, msg);
    }
    ws_err_msg(m->err, "config import wrote a config warpsim refuses: %s",
               e->text);
    m->err->internal = 1;
    return -1;
}

/* A private folder for the check, so that nothing else is named there. */
static int ws_gs_tmp(struct ws_gs_map *m, char *dir, size_t cap, char *path,
                     size_t pcap)
{
    const char *t = getenv("TMPDIR");

    snprintf(dir, cap, "%s/ws-import-XXXXXX", t && *t ? t : "/tmp");
    if (!mkdtemp(dir)) {
        ws_err_msg(m->err,
                   "%s: cannot create a folder to check the config "
                   "in: %s (expected a writable TMPDIR)",
                   dir, strerror(errno));
        m->err->internal = 1;
        return -1;
    }
    snprintf(path, pcap, "%s/imported.yaml", dir);
    return 0;
}

int ws_gs_validate(struct ws_gs_map *m, const char *yaml)
{
    char dir[4200], path[4300];
    struct ws_gpu check;
    struct ws_err e;
    FILE *fp;
    int rc;

    if (ws_gs_tmp(m, dir, sizeof dir, path, sizeof path) < 0)
        return -1;
    fp = fopen(path, "w");
    rc = fp && fputs(yaml, fp) >= 0 ? 0 : -1;
    if (fp && fclose(fp) != 0)
        rc = -1;
    if (rc < 0) {
        remove(path);
        rmdir(dir);
        ws_err_msg(m->err,
                   "%s: cannot write the config to check it: %s "
                   "(expected a writable TMPDIR)",
                   path, strerror(errno));
        m->err->internal = 1;
        return -1;
    }
    ws_err_clear(&e);
    rc = ws_cfg_load(&check, path, NULL, 0, &e);
    remove(path);
    rmdir(dir);
    if (rc == 0)
        return 0;
    if (e.internal) {
        *m->err = e;
        return -1;
    }
    return ws_gs_refused(m, path, &e);
}

/* ---- entry points ---------------------------------------------------------- */

/* The sm_version the input states, 0 if none: only to pick the base, so a
 * malformed value is left for the rule that reads it to report. */
static unsigned ws_gs_sm_version(struct ws_gpgpusim *g)
{
    struct ws_gpgpusim_opt *maj =
        ws_gpgpusim_peek(g, "-gpgpu_compute_capability_major");
    struct ws_gpgpusim_opt *min =
        ws_gpgpusim_peek(g, "-gpgpu_compute_capability_minor");
    struct ws_gpgpusim_opt *cap =
        ws_gpgpusim_peek(g, "-gpgpu_ptx_force_max_capability");

    if (maj)
        return (unsigned)(strtoul(maj->value, NULL, 10) * 10
                          + (min ? strtoul(min->value, NULL, 10) % 10 : 0));
    return cap ? (unsigned)strtoul(cap->value, NULL, 10) : 0;
}

/* The built-in config to stand in for what GPGPU-Sim lacks: the newest
 * one not newer than the input's sm_version (else the oldest), the
 * default among equals. */
static int ws_gs_pick_base(struct ws_gs_map *m, unsigned sm)
{
    int best = -1;
    unsigned best_sm = 0, low_sm = ~0u;
    const char *low = NULL, *pick = NULL;
    size_t n;

    for (int i = 0; ws_cfg_builtin_name(i); i++) {
        const char *name = ws_cfg_builtin_name(i);
        struct ws_err e;
        ws_err_clear(&e);
        if (ws_cfg_load(&m->out, name, NULL, 0, &e) < 0)
            continue;
        if (m->out.sm_version < low_sm)
            low_sm = m->out.sm_version, low = name;
        if (sm && m->out.sm_version <= sm
            && (best < 0 || m->out.sm_version > best_sm
                || (m->out.sm_version == best_sm
                    && strncmp(name, ws_cfg_default_name(),
                               strlen(ws_cfg_default_name()))
                           == 0
                    && name[strlen(ws_cfg_default_name())] == '.'))) {
            best = i;
            best_sm = m->out.sm_version;
            pick = name;
        }
    }
    if (!pick)
        pick = sm ? low : ws_cfg_default_name();
    if (!pick || ws_cfg_load(&m->out, pick, NULL, 0, m->err) < 0)
        return ws_err_msg(m->err, "no built-in GPU config loads (expected "
                                  "the configs compiled in)");
    n = strcspn(pick, ".");
    snprintf(m->base_name, sizeof m->base_name, "%.*s", (int)n, pick);
    return 0;
}

static int ws_gs_load_base(struct ws_gs_map *m, const char *base)
{
    const char *name;

    if (!base)
        return ws_gs_pick_base(m, ws_gs_sm_version(m->g));
    if (ws_cfg_load(&m->out, base, NULL, 0, m->err) < 0)
        return -1;
    name = strrchr(base, '/');
    ws_gs_quote(m->base_name, sizeof m->base_name, name ? name + 1 : base, 40);
    if (strlen(m->base_name) > 5
        && strcmp(m->base_name + strlen(m->base_name) - 5, ".yaml") == 0)
        m->base_name[strlen(m->base_name) - 5] = '\0';
    return 0;
}

int ws_gpgpusim_translate(struct ws_gpgpusim *g, const char *base, char **yaml,
                          struct ws_err *err)
{
    struct ws_gs_map *m = calloc(1, sizeof *m);
    int rc;

    *yaml = NULL;
    if (!m)
        return ws_err_oom(err);
    m->g = g;
    m->err = err;
    m->first_file = g->nfiles ? g->files[0] : "(no input)";
    rc = ws_gs_load_base(m, base);
    if (rc == 0)
        rc = ws_gs_map_all(m);
    if (rc == 0)
        rc = ws_gs_write(m, yaml);
    if (rc == 0)
        rc = ws_gs_validate(m, *yaml);
    if (rc < 0) {
        free(*yaml);
        *yaml = NULL;
    }
    free(m->notes);
    free(m);
    return rc;
}

int ws_gpgpusim_import(const struct ws_gpgpusim_import *in, char **yaml,
                       struct ws_err *err)
{
    struct ws_gpgpusim g;
    int rc = 0;

    *yaml = NULL;
    ws_gpgpusim_init(&g);
    if (ws_gpgpusim_read(&g, in->config, err) < 0) {
        ws_err_place_arg(err, in->config);
        rc = -1;
    }
    if (rc == 0 && g.n == 0)
        rc = ws_err_at(err, in->config, 1, 1,
                       "no options (expected the "
                       "-name value lines of a GPGPU-Sim config)");
    if (rc == 0 && in->trace) {
        size_t before = g.n;
        if (ws_gpgpusim_read(&g, in->trace, err) < 0) {
            ws_err_place_arg(err, in->trace);
            rc = -1;
        } else if (g.n == before) {
            rc = ws_err_at(err, in->trace, 1, 1,
                           "no options (expected the "
                           "-name value lines of an Accel-Sim trace.config, "
                           "or no second file)");
        }
    }
    if (rc == 0)
        rc = ws_gpgpusim_translate(&g, in->base, yaml, err);
    ws_gpgpusim_free(&g);
    return rc;
}
