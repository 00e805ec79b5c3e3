/*
 * Unit tests of "config import" (sim/import/ws_gpgpusim*.c): GPGPU-Sim's
 * option syntax, the packed values (caches, DRAM timings, address map,
 * specialized units), every option family's translation on the fixtures of
 * tests/data/gpgpusim/, the Quadro V100 pair key by key, that the output
 * names every option the input gives (alone or with the options it
 * combines with), and positioned errors for malformed input and for values
 * warpsim's own validation refuses.
 *
 * Leaves out: the command line (tests/cli/cases_import.txt) and whole
 * simulations of the imported config (tests/cli/import_roundtrip.py).
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config/ws_cfg_schema.h"
#include "config/ws_config.h"
#include "import/ws_gpgpusim.h"
#include "ws_test.h"

#define DATA "tests/data/gpgpusim/"

static void parse_ok(struct ws_gpgpusim *g, const char *text)
{
    struct ws_err err;

    ws_err_clear(&err);
    ws_gpgpusim_init(g);
    if (ws_gpgpusim_parse(g, "t.config", text, strlen(text), &err) < 0)
        fail_msg("%s", err.text);
}

/* Parses len bytes of text and expects an error at line:col containing
 * want. */
static void parse_bad_len(const char *text, size_t len, long line, long col,
                          const char *want)
{
    struct ws_gpgpusim g;
    struct ws_err err;
    char at[64];

    ws_err_clear(&err);
    ws_gpgpusim_init(&g);
    assert_int_equal(ws_gpgpusim_parse(&g, "t.config", text, len, &err), -1);
    ws_test_err(&err, "t.config", line, want);
    snprintf(at, sizeof at, "t.config:%ld:%ld: ", line, col);
    if (strncmp(err.text, at, strlen(at)) != 0)
        fail_msg("'%s' is not at %s", err.text, at);
    ws_gpgpusim_free(&g);
}

static void parse_bad(const char *text, long line, long col, const char *want)
{
    parse_bad_len(text, strlen(text), line, col, want);
}

static void test_syntax(void **state)
{
    struct ws_gpgpusim g;
    struct ws_gpgpusim_opt *o;
    long line, col;

    (void)state;
    parse_ok(&g, "# comment\n\n-a 1   # trailing\n\t-b  two -c 3\n-a 4\n"
                 "-q \"x:y:\n   z\"\n-n -1\n-e \"\" -f \"one\"\n");
    o = ws_gpgpusim_get(&g, "-a");
    assert_non_null(o);
    assert_string_equal(o->value, "4"); /* the last one counts */
    assert_int_equal(o->line, 5);
    assert_string_equal(ws_gpgpusim_peek(&g, "-b")->value, "two");
    assert_string_equal(ws_gpgpusim_peek(&g, "-c")->value, "3");
    o = ws_gpgpusim_peek(&g, "-q");
    assert_string_equal(o->value, "x:y: z"); /* joined by one blank */
    ws_gpgpusim_pos(o, 5, &line, &col);      /* the 'z' */
    assert_int_equal(line, 7);
    assert_int_equal(col, 4);
    ws_gpgpusim_pos(o, 0, &line, &col); /* after the quote */
    assert_int_equal(line, 6);
    assert_int_equal(col, 5);
    assert_string_equal(ws_gpgpusim_peek(&g, "-n")->value, "-1");
    assert_string_equal(ws_gpgpusim_peek(&g, "-e")->value, "");
    assert_string_equal(ws_gpgpusim_peek(&g, "-f")->value, "one");
    assert_null(ws_gpgpusim_peek(&g, "-zz"));
    assert_false(ws_gpgpusim_peek(&g, "-c")->used);
    assert_true(ws_gpgpusim_get(&g, "-c")->used);
    /* Only the occurrence that counts is last. */
    assert_false(g.opt[0].last);
    assert_true(g.opt[4].last);
    ws_gpgpusim_free(&g);
}

static void test_syntax_errors(void **state)
{
    (void)state;
    parse_bad("-a 1\n-b\n", 2, 1, "-b has no value");
    parse_bad("-a -b 2\n", 1, 1, "before the next option -b");
    parse_bad("-a 1 2\n", 1, 6, "'2' is not an option name");
    parse_bad("stray\n", 1, 1, "'stray' is not an option name");
    parse_bad("-a \"open\n  still\n", 1, 4, "unterminated quoted value");
    parse_bad_len("-a 1\n-b \0\n", 9, 2, 4, "NUL byte");
}

static void test_numbers(void **state)
{
    struct ws_gpgpusim g;
    struct ws_err err;
    uint64_t v[8];
    double r[4];
    size_t n;
    int b;

    (void)state;
    parse_ok(&g, "-h 0x10\n-z 010\n-w 32abc\n-l \"1,2, 3\"\n-c 1.5:2:3e2:4.0\n"
                 "-b 1\n-bad 2\n-big 99999999999999999999\n-f 1.0:inf:1:1\n");
    ws_err_clear(&err);
    assert_int_equal(ws_gpgpusim_uint(ws_gpgpusim_peek(&g, "-h"), 0, 100, v,
                                      &err),
                     0);
    assert_true(v[0] == 16);
    assert_int_equal(ws_gpgpusim_uint(ws_gpgpusim_peek(&g, "-z"), 0, 100, v,
                                      &err),
                     -1);
    ws_test_err(&err, "t.config", 2, "octal");
    ws_err_clear(&err);
    assert_int_equal(ws_gpgpusim_uint(ws_gpgpusim_peek(&g, "-w"), 0, 100, v,
                                      &err),
                     -1);
    ws_test_err(&err, "t.config", 3, "not a whole number");
    ws_err_clear(&err);
    assert_int_equal(ws_gpgpusim_uint(ws_gpgpusim_peek(&g, "-big"), 0,
                                      UINT64_MAX, v, &err),
                     -1);
    ws_test_err(&err, "t.config", 8, "too large");
    ws_err_clear(&err);
    assert_int_equal(ws_gpgpusim_uints(ws_gpgpusim_peek(&g, "-l"), ',', 3, 3, 0,
                                       10, v, &n, &err),
                     0);
    assert_true(n == 3 && v[2] == 3);
    assert_int_equal(ws_gpgpusim_uints(ws_gpgpusim_peek(&g, "-l"), ',', 4, 8, 0,
                                       10, v, &n, &err),
                     -1);
    ws_test_err(&err, "t.config", 4, "at least 4");
    ws_err_clear(&err);
    assert_int_equal(ws_gpgpusim_reals(ws_gpgpusim_peek(&g, "-c"), ':', 4, 1e5,
                                       r, &err),
                     0);
    assert_true(r[0] == 1.5 && r[2] == 300.0);
    assert_int_equal(ws_gpgpusim_reals(ws_gpgpusim_peek(&g, "-f"), ':', 4, 1e5,
                                       r, &err),
                     -1);
    ws_test_err(&err, "t.config", 9, "field 2");
    ws_err_clear(&err);
    assert_int_equal(ws_gpgpusim_bool(ws_gpgpusim_peek(&g, "-b"), &b, &err), 0);
    assert_int_equal(b, 1);
    assert_int_equal(ws_gpgpusim_bool(ws_gpgpusim_peek(&g, "-bad"), &b, &err),
                     -1);
    ws_test_err(&err, "t.config", 7, "0 or 1");
    ws_gpgpusim_free(&g);
}

/* The cache string of "-k VALUE" parsed, or the error's column checked. */
static int cache_of(const char *value, struct ws_gpgpusim_cache *c,
                    long bad_col, const char *want)
{
    struct ws_gpgpusim g;
    struct ws_err err;
    char text[256], at[32];
    int rc;

    snprintf(text, sizeof text, "-k %s\n", value);
    parse_ok(&g, text);
    ws_err_clear(&err);
    rc = ws_gpgpusim_cache(ws_gpgpusim_peek(&g, "-k"), c, &err);
    if (bad_col > 0) {
        assert_int_equal(rc, -1);
        ws_test_err(&err, "t.config", 1, want);
        snprintf(at, sizeof at, "t.config:1:%ld:", bad_col);
        if (strncmp(err.text, at, strlen(at)) != 0)
            fail_msg("'%s' is not at column %ld", err.text, bad_col);
    } else if (rc < 0) {
        fail_msg("%s: %s", value, err.text);
    }
    ws_gpgpusim_free(&g);
    return rc;
}

static void test_cache_strings(void **state)
{
    struct ws_gpgpusim_cache c;

    (void)state;
    cache_of("S:4:128:64,L:T:m:L:L,A:512:8,16:0,32", &c, 0, NULL);
    assert_int_equal(c.type, 'S');
    assert_true(c.sets == 4 && c.line == 128 && c.assoc == 64);
    assert_int_equal(c.write, 'T');
    assert_int_equal(c.set_index, 'L');
    assert_true(c.mshr_entries == 512 && c.mshr_merge == 8);
    assert_true(c.has_miss_queue && c.miss_queue == 16);
    assert_true(c.has_fifo && c.result_fifo == 0);
    assert_true(c.has_port && c.port == 32);
    cache_of("N:64:128:6,F:L:m:N:H,A:128:8", &c, 0, NULL);
    assert_true(c.type == 'N' && !c.has_miss_queue && c.port == 128);
    /* GPGPU-Sim 3: no type letter, four or five policy letters. */
    cache_of("32:128:4,L:L:m:N,A:32:8,8", &c, 0, NULL);
    assert_true(c.type == 'N' && c.set_index == 0 && c.miss_queue == 8);
    cache_of("64:128:8,L:B:m:W:L,A:32:4,4", &c, 0, NULL);
    assert_int_equal(c.set_index, 'L');
    cache_of("none", &c, 0, NULL);
    assert_true(c.disabled);
    cache_of("Q:4:128:64,L:T:m:L:L,A:512:8", &c, 4, "cache type 'Q'");
    cache_of("S:0:128:64,L:T:m:L:L,A:512:8", &c, 6, "sets 0");
    cache_of("S:4:96:64,L:T:m:L:L,A:512:8", &c, 8, "power of two");
    cache_of("S:4:64:64,L:T:m:L:L,A:512:8", &c, 6, "four 32-byte sectors");
    cache_of("S:4:128:64,L:T:x:L:L,A:512:8", &c, 19, "allocation 'x'");
    cache_of("S:4:128:64,L:B:f:N:L,A:512:8", &c, 15, "write-back");
    cache_of("S:4:128:64,L:T:m:L,A:512:8", &c, 22, "missing after");
    cache_of("S:4:128:64,L:T:m:L:L,A:512", &c, 30, "missing after");
    cache_of("S:4:128:64,L:T:m:L:L,A:512:8,16:0,48", &c, 38, "divide");
    cache_of("S:4:128:64,L:T:m:L:L,A:512:8,16:0,32x", &c, 40, "unexpected 'x'");
    cache_of("S:1099511627776:128:24,L:B:m:L:P,A:192:4", &c, 6, "out of range");
}

static void test_dram_timing(void **state)
{
    struct ws_gpgpusim g;
    struct ws_gpgpusim_dram d;
    struct ws_err err;

    (void)state;
    parse_ok(&g, "-n \"nbk=16:CCD=1:RRD=3:RCD=12:RAS=28:RP=12:RC=40:\n"
                 "    CL=12:WL=2:CDLR=3:WR=10:nbkgrp=4:CCDL=2:RTPL=3\"\n"
                 "-p 16:2:8:12:21:13:34:10:7:1:9\n"
                 "-u nbk=16:CCD=1:RRD=3:RCD=12:RAS=28:RP=12:RC=40:CL=12:WL=2\n"
                 "-x \"nbk=16:CCD=1:RRD=3:RCD=12:RAS=28:RP=12:RC=40:\n"
                 "    CL=twelve:WL=2:CDLR=3:WR=10\"\n"
                 "-g nbk=16:CCD=1:RRD=3:RCD=12:RAS=28:RP=12:RC=40:CL=12:WL=2:"
                 "CDLR=3:WR=10:nbkgrp=3\n-y nbk=16:tFAW=4\n");
    ws_err_clear(&err);
    assert_int_equal(ws_gpgpusim_dram_timing(ws_gpgpusim_peek(&g, "-n"), &d,
                                             &err),
                     0);
    assert_true(d.nbk == 16 && d.rcd == 12 && d.cl == 12 && d.nbkgrp == 4
                && d.ccdl == 2);
    assert_int_equal(ws_gpgpusim_dram_timing(ws_gpgpusim_peek(&g, "-p"), &d,
                                             &err),
                     0);
    assert_true(d.nbk == 16 && d.wr == 9 && d.nbkgrp == 1 && d.ccdl == 0);
    assert_int_equal(ws_gpgpusim_dram_timing(ws_gpgpusim_peek(&g, "-u"), &d,
                                             &err),
                     -1);
    ws_test_err(&err, "t.config", 4, "no CDLR");
    ws_err_clear(&err);
    /* Placed on the value's second line, at the bad field. */
    assert_int_equal(ws_gpgpusim_dram_timing(ws_gpgpusim_peek(&g, "-x"), &d,
                                             &err),
                     -1);
    ws_test_err(&err, "t.config", 6, "'twelve'");
    assert_non_null(strstr(err.text, "t.config:6:8:"));
    ws_err_clear(&err);
    assert_int_equal(ws_gpgpusim_dram_timing(ws_gpgpusim_peek(&g, "-g"), &d,
                                             &err),
                     -1);
    ws_test_err(&err, "t.config", 7, "does not divide");
    ws_err_clear(&err);
    assert_int_equal(ws_gpgpusim_dram_timing(ws_gpgpusim_peek(&g, "-y"), &d,
                                             &err),
                     -1);
    ws_test_err(&err, "t.config", 8, "unknown DRAM timing 'tFAW'");
    ws_gpgpusim_free(&g);
}

static void test_addr_map_and_spec(void **state)
{
    struct ws_gpgpusim g;
    struct ws_gpgpusim_spec s;
    struct ws_err err;
    unsigned bits;

    (void)state;
    parse_ok(&g, "-m dramid@8;00000000.00000000.00000000.00000000.0000RRRR."
                 "RRRRRRRR.RBBBCCCB.CCCSSSSS\n-s 0000RRRR.RBBBCCCB.CCCSSSSS\n"
                 "-x 00000000.00000000.00000000.00000000.0000RRRR.RRRRRRRR."
                 "RBBBCCCB.CCCSSSSQ\n-u 1,4,4,4,4,BRA\n-v 1,4,4,BRA\n"
                 "-w 2,4,4,4,4,BRA\n");
    ws_err_clear(&err);
    assert_int_equal(ws_gpgpusim_addr_map(ws_gpgpusim_peek(&g, "-m"), &bits,
                                          &err),
                     0);
    assert_int_equal(bits, 11);
    assert_int_equal(ws_gpgpusim_addr_map(ws_gpgpusim_peek(&g, "-s"), &bits,
                                          &err),
                     -1);
    ws_test_err(&err, "t.config", 2, "expected 64 letters");
    ws_err_clear(&err);
    assert_int_equal(ws_gpgpusim_addr_map(ws_gpgpusim_peek(&g, "-x"), &bits,
                                          &err),
                     -1);
    ws_test_err(&err, "t.config", 3, "'Q'");
    ws_err_clear(&err);
    assert_int_equal(ws_gpgpusim_spec_unit(ws_gpgpusim_peek(&g, "-u"), &s,
                                           &err),
                     0);
    assert_true(s.enabled && s.units == 4);
    assert_string_equal(s.name, "BRA");
    assert_int_equal(ws_gpgpusim_spec_unit(ws_gpgpusim_peek(&g, "-v"), &s,
                                           &err),
                     -1);
    ws_err_clear(&err);
    assert_int_equal(ws_gpgpusim_spec_unit(ws_gpgpusim_peek(&g, "-w"), &s,
                                           &err),
                     -1);
    ws_test_err(&err, "t.config", 6, "enabled 2");
    ws_gpgpusim_free(&g);
}

static void test_known(void **state)
{
    (void)state;
    assert_non_null(ws_gpgpusim_known("-gpgpu_n_mem"));
    assert_null(ws_gpgpusim_known("-gpgpu_n_mem")->why);
    assert_non_null(ws_gpgpusim_known("-gpgpu_memlatency_stat")->why);
    assert_non_null(ws_gpgpusim_known("-specialized_unit_7"));
    assert_null(ws_gpgpusim_known("-specialized_unit_"));
    assert_null(ws_gpgpusim_known("-specialized_unit_x"));
    assert_non_null(ws_gpgpusim_known("-power_simulation_enabled")->why);
    assert_null(ws_gpgpusim_known("-no_such_option"));
}

/* ---- translation ---------------------------------------------------------- */

struct imported {
    struct ws_gpu gpu;
    char *yaml;
};

/* Imports config (and trace), loads the YAML back through the loader. */
static struct imported import_ok(const char *config, const char *trace,
                                 const char *base)
{
    struct ws_gpgpusim_import in = {config, trace, base};
    struct imported r;
    struct ws_err err;
    char path[64];
    FILE *fp;

    ws_err_clear(&err);
    if (ws_gpgpusim_import(&in, &r.yaml, &err) < 0)
        fail_msg("%s: %s", config, err.text);
    snprintf(path, sizeof path, "/tmp/ws-test-import-%ld.yaml", (long)getpid());
    fp = fopen(path, "w");
    assert_non_null(fp);
    fputs(r.yaml, fp);
    fclose(fp);
    if (ws_cfg_load(&r.gpu, path, NULL, 0, &err) < 0)
        fail_msg("%s", err.text);
    remove(path);
    return r;
}

/* The text after "key: value" on the YAML line of key (a leaf name under
 * its group), for the comment checks. */
static const char *line_of(const char *yaml, const char *leaf_line)
{
    const char *p = strstr(yaml, leaf_line);

    if (!p)
        fail_msg("no line '%s' in the YAML", leaf_line);
    return p;
}

static void assert_comment(const char *yaml, const char *leaf_line,
                           const char *want)
{
    const char *p = line_of(yaml, leaf_line);
    const char *end = strchr(p, '\n');
    /* The comment may wrap onto the next lines. */
    const char *stop = end;
    while (stop && stop[1] == ' '
           && strncmp(stop + 1 + strspn(stop + 1, " "), "#", 1) == 0)
        stop = strchr(stop + 1, '\n');
    {
        size_t n = stop ? (size_t)(stop - p) : strlen(p);
        char *chunk = strndup(p, n);
        assert_non_null(chunk);
        if (!strstr(chunk, want))
            fail_msg("'%s' does not say '%s'", chunk, want);
        free(chunk);
    }
}

static void test_qv100(void **state)
{
    struct imported r = import_ok(DATA "qv100.config",
                                  DATA "qv100.trace.config", NULL);
    const struct ws_gpu *g = &r.gpu;

    (void)state;
    assert_int_equal(g->sm_version, 70);
    assert_true(g->core_mhz == 1132.0);
    assert_int_equal(g->sm.count, 80);
    assert_int_equal(g->sm.sub_cores, 4);
    assert_int_equal(g->sm.max_threads, 2048);
    assert_int_equal(g->sm.max_warps, 64);
    assert_int_equal(g->sm.max_blocks, 32);
    assert_int_equal(g->sm.registers, 65536);
    assert_true(g->sm.shared_mem == 96 * 1024);
    assert_true(g->sm.shared_per_block == 64 * 1024);
    assert_true(g->sm.l1_shared == 128 * 1024);
    assert_int_equal(g->sm.ncarveouts, 6);
    assert_true(g->sm.carveout[5] == 96 * 1024);
    assert_int_equal(g->sched.policy, WS_SCHED_LRR);
    assert_int_equal(g->sched.dual_issue, 0);
    assert_int_equal(g->unit[WS_UNIT_FP32].latency, 4);
    assert_int_equal(g->unit[WS_UNIT_FP32].interval, 2);
    assert_int_equal(g->unit[WS_UNIT_FP32].lanes, 16);
    assert_int_equal(g->unit[WS_UNIT_SFU].latency, 21);
    assert_int_equal(g->unit[WS_UNIT_SFU].lanes, 4);
    assert_int_equal(g->unit[WS_UNIT_FP64].lanes, 8);
    assert_int_equal(g->unit[WS_UNIT_TENSOR].latency, 8); /* spec unit 3 */
    assert_int_equal(g->unit[WS_UNIT_BRANCH].interval, 4);
    assert_true(g->l1.enabled);
    assert_true(g->l1.size == 128 * 1024);
    assert_int_equal(g->l1.assoc, 64);
    assert_true(g->l1.sector == 32);
    assert_int_equal(g->l1.latency, 20);
    assert_int_equal(g->l1.mshrs, 512);
    assert_int_equal(g->l1.miss_queue, 16);
    assert_int_equal(g->shared.banks, 32);
    assert_int_equal(g->shared.latency, 20);
    assert_true(g->l2.size == 6u << 20);
    assert_int_equal(g->l2.slices, 64);
    assert_int_equal(g->l2.assoc, 24);
    assert_int_equal(g->l2.mshrs, 192);
    assert_int_equal(g->l2.input_queue, 64);
    assert_int_equal(g->l2.latency, 180); /* 20 + 160 */
    ws_test_near(g->l2.bandwidth, 2318.336, "l2.bandwidth");
    assert_int_equal(g->l2.hash, WS_L2_HASH_XOR);
    assert_int_equal(g->dram.channels, 32);
    ws_test_near(g->dram.bandwidth, 870.4, "dram.bandwidth");
    assert_true(g->dram.clock_mhz == 850.0);
    assert_true(g->dram.row_size == 2048);
    assert_int_equal(g->dram.banks, 16);
    assert_int_equal(g->dram.bank_groups, 4);
    assert_true(g->dram.burst == 32);
    ws_test_near(g->dram.t_rcd, 14.118, "t_rcd");
    ws_test_near(g->dram.t_ras, 32.941, "t_ras");
    ws_test_near(g->dram.t_wtr, 7.059, "t_wtr");  /* 2 + 1 + 3 */
    ws_test_near(g->dram.t_rtw, 15.294, "t_rtw"); /* 12 + 1 + 2 - 2 */
    /* 180 + 100 + (12 + 12 + 1) x 1132 / 850, rounded up */
    assert_int_equal(g->dram.latency, 314);
    ws_test_near(g->icnt.bandwidth_per_sm, 45.28, "icnt");
    assert_int_equal(g->launch_overhead, 5000);
    assert_true(g->memcpy_warms_l2);
    /* Comments name the sources; the closing list gives reasons. */
    assert_comment(r.yaml, "  count: 80", "-gpgpu_n_clusters 80 x");
    assert_comment(r.yaml, "  size: 6MiB", "-gpgpu_n_mem 32");
    assert_comment(r.yaml, "  reg_alloc_unit: 256", "[BASE v100]");
    assert_comment(r.yaml, "  t_refi:", "no refresh");
    assert_non_null(strstr(r.yaml, "#   -gpgpu_memlatency_stat 14: "
                                   "statistics"));
    assert_non_null(strstr(r.yaml, "#   -specialized_unit_2 1,4,200,4,4,TEX: "
                                   "texture unit"));
    assert_non_null(strstr(r.yaml, "-ptx_opcode_latency_fp 4,13,4,5,39: "
                                   "PTX-mode"));
    /* Options a rule read are not listed. */
    assert_null(strstr(r.yaml, "#   -gpgpu_n_mem "));
    free(r.yaml);
}

/* Every key line carries a comment. */
static void test_every_key_commented(void **state)
{
    struct imported r = import_ok(DATA "qv100.config",
                                  DATA "qv100.trace.config", NULL);
    const char *p = r.yaml;

    (void)state;
    while (*p) {
        const char *end = strchr(p, '\n');
        size_t n = end ? (size_t)(end - p) : strlen(p);
        const char *colon = memchr(p, ':', n);
        /* A key with a value: "key: value" (groups end with ':'). */
        if (p[0] != '#' && colon && (size_t)(colon - p) + 1 < n
            && !memchr(p, '#', n))
            fail_msg("line without a comment: %.*s", (int)n, p);
        p += n + (end != NULL);
    }
    free(r.yaml);
}

static void test_families(void **state)
{
    struct imported r;

    (void)state;
    r = import_ok(DATA "syntax.config", NULL, NULL);
    assert_int_equal(r.gpu.sm.count, 84); /* 42 x 2 */
    assert_int_equal(r.gpu.sm.max_blocks, 16);
    assert_int_equal(r.gpu.sm.registers, 32768);
    assert_int_equal(r.gpu.sched.policy, WS_SCHED_TWO_LEVEL);
    assert_int_equal(r.gpu.sched.active_warps, 6);
    assert_true(r.gpu.core_mhz == 1200.0 && r.gpu.dram.clock_mhz == 900.0);
    assert_non_null(strstr(r.yaml, "#   -my_fork_option 7: unknown option"));
    free(r.yaml);

    r = import_ok(DATA "cache.config", NULL, NULL);
    assert_false(r.gpu.l1.enabled); /* skip_L1D */
    assert_true(r.gpu.l1.size == 48 * 1024 && r.gpu.l1.assoc == 6);
    assert_true(r.gpu.l1.sector == 128 && r.gpu.l2.sector == 128);
    assert_true(r.gpu.l2.size == 2u << 20 && r.gpu.l2.slices == 32);
    assert_int_equal(r.gpu.l2.latency, 148); /* 28 + 120 */
    ws_test_near(r.gpu.l2.bandwidth, 32 * 64 * 1000 / 1000.0, "l2 bw");
    assert_int_equal(r.gpu.sm.ncarveouts, 0); /* fixed split */
    assert_true(r.gpu.sm.shared_per_block == 48 * 1024);
    free(r.yaml);

    r = import_ok(DATA "legacy_cache.config", NULL, NULL);
    assert_int_equal(r.gpu.sm.sub_cores, 2);
    assert_int_equal(r.gpu.sm.max_warps, 48);
    assert_int_equal(r.gpu.unit[WS_UNIT_FP32].latency, 5); /* MAD */
    assert_int_equal(r.gpu.unit[WS_UNIT_FP32].interval, 1);
    assert_int_equal(r.gpu.unit[WS_UNIT_SFU].lanes, 2); /* half */
    assert_int_equal(r.gpu.unit[WS_UNIT_SFU].interval, 16);
    ws_test_near(r.gpu.dram.bandwidth, 177.408, "GTX 480 DRAM");
    assert_true(r.gpu.dram.burst == 64);
    assert_int_equal(r.gpu.l2.hash, WS_L2_HASH_LINEAR);
    assert_non_null(strstr(r.yaml, "-icnt_flit_size 32: the flit"));
    free(r.yaml);

    r = import_ok(DATA "split.config", NULL, NULL);
    assert_int_equal(r.gpu.sm.ncarveouts, 8); /* sorted */
    assert_true(r.gpu.sm.carveout[0] == 0
                && r.gpu.sm.carveout[7] == 164 * 1024);
    assert_true(r.gpu.l1.size == 128 * 1024); /* 4 x 32 KB cap */
    assert_true(r.gpu.sm.l1_shared == 192 * 1024);
    free(r.yaml);

    r = import_ok(DATA "dram.config", NULL, NULL);
    assert_int_equal(r.gpu.dram.channels, 40);
    ws_test_near(r.gpu.dram.bandwidth, 40 * 32 * 1215 / 1000.0, "A100 DRAM");
    assert_int_equal(r.gpu.dram.write_batch, 24);
    assert_int_equal(r.gpu.l2.slices, 80);
    assert_true(r.gpu.l2.size == 80 * 96 * 1024); /* base per slice */
    assert_int_equal(r.gpu.l2.latency, 220);
    free(r.yaml);

    r = import_ok(DATA "units.trace.config", NULL, NULL);
    assert_int_equal(r.gpu.unit[WS_UNIT_UNIFORM].lanes, 32);
    assert_int_equal(r.gpu.unit[WS_UNIT_TENSOR].latency, 16);
    assert_int_equal(r.gpu.unit[WS_UNIT_FP64].interval, 54); /* capped */
    assert_non_null(strstr(r.yaml, "-specialized_unit_5 0,4,4,4,4,SPARE: "
                                   "disabled"));
    free(r.yaml);
}

static void test_base_choice(void **state)
{
    struct imported r;

    (void)state;
    r = import_ok(DATA "units.trace.config", NULL, "a100");
    assert_int_equal(r.gpu.sm_version, 80);
    assert_non_null(strstr(r.yaml, "[BASE a100]"));
    free(r.yaml);
    /* No capability given: the default built-in. */
    r = import_ok(DATA "dram.config", NULL, NULL);
    assert_non_null(strstr(r.yaml, "[BASE v100]"));
    free(r.yaml);
}

/* Text translated; the error must be at file:line (and col, when not 0)
 * and contain want. */
static void translate_bad_at(const char *text, long line, long col,
                             const char *want)
{
    struct ws_gpgpusim g;
    struct ws_err err;
    char *yaml = (char *)"unset";
    char at[64];

    parse_ok(&g, text);
    ws_err_clear(&err);
    assert_int_equal(ws_gpgpusim_translate(&g, NULL, &yaml, &err), -1);
    assert_null(yaml);
    ws_test_err(&err, "t.config", line, want);
    snprintf(at, sizeof at, "t.config:%ld:%ld: ", line, col);
    if (col > 0 && strncmp(err.text, at, strlen(at)) != 0)
        fail_msg("'%s' is not at %s", err.text, at);
    ws_gpgpusim_free(&g);
}

static void translate_bad(const char *text, long line, const char *want)
{
    translate_bad_at(text, line, 0, want);
}

static void test_translation_errors(void **state)
{
    (void)state;
    translate_bad("-gpgpu_n_clusters 0\n", 1, "out of range");
    translate_bad("-gpgpu_n_clusters 100000\n-gpgpu_n_cores_per_cluster 2\n", 1,
                  "sm.count 200000");
    translate_bad("-gpgpu_shader_core_pipeline 2048:64\n", 1, "warp size 64");
    translate_bad("-gpgpu_scheduler fifo\n", 1, "unknown scheduler");
    translate_bad("-gpgpu_cache:dl2 none\n", 1, "no L2");
    translate_bad("-gpgpu_memlatency_stat abc\n", 1, "not a whole number");
    translate_bad("-gpgpu_clock_domains 1132.0:1132.0:1132.0\n", 1, "3 fields");
    translate_bad("-dram_write_queue_size 32:16:28\n", 1, "high watermark");
    /* A high mark the queue never reaches; placed at that field. */
    translate_bad_at("# size:high:low\n-dram_write_queue_size 64:80:32\n", 2,
                     27, "high watermark 80 above the queue's size 64");
    /* Refused by warpsim's own validation, placed at the option. */
    translate_bad("-gpgpu_adaptive_cache_config 1\n"
                  "-gpgpu_unified_l1d_size 128\n"
                  "-gpgpu_shmem_option 0,8,16,32,64,96\n"
                  "-gpgpu_shmem_size 65536\n",
                  4, "sm.shared_mem is not the largest carveout");
    translate_bad("-gpgpu_cache:dl1 N:64:128:6,L:L:m:N:L,A:32:8,8\n"
                  "-gpgpu_cache:dl2 S:32:128:24,L:B:m:L:P,A:192:4,32:0,32\n",
                  1, "l1.sector differs from l2.sector");
    /* The loader blames a key the base gave (l1.size); the option that
     * gave another key of the same rule is at fault, not line 1 (a
     * comment). */
    translate_bad_at("# c\n-gpgpu_unified_l1d_size 128\n", 2, 25,
                     "-gpgpu_unified_l1d_size: translated to sm.l1_shared, "
                     "which warpsim refuses with l1.size kept from the base");
    translate_bad_at("# c\n\n-gpgpu_cache:dl2 N:64:128:8,L:B:m:W:L,A:32:4,4\n",
                     3, 18,
                     "translated to l2.sector, which warpsim refuses "
                     "with l1.sector kept from the base");
}

/* Whether text names the option name whole (not the start of a longer
 * name). */
static int names_option(const char *text, const char *name)
{
    size_t n = strlen(name);

    for (const char *p = text; (p = strstr(p, name)) != NULL; p++) {
        char after = p[n];
        if (p > text && (isalnum((unsigned char)p[-1]) || p[-1] == '_'))
            continue;
        if (isalnum((unsigned char)after) || after == '_'
            || (after == ':'
                && (isalnum((unsigned char)p[n + 1]) || p[n + 1] == '_')))
            continue;
        return 1;
    }
    return 0;
}

/* Every option name of the file at path (read independently of the
 * importer's reader: '#' to the end of a line dropped, words split on
 * blanks, a word opening with a dash and a letter a name) must be named
 * in yaml. */
static void assert_names_all(const char *yaml, const char *path)
{
    FILE *fp = fopen(path, "r");
    char line[4096];

    assert_non_null(fp);
    while (fgets(line, sizeof line, fp)) {
        char *hash = strchr(line, '#'), *save = NULL;
        if (hash)
            *hash = '\0';
        for (char *w = strtok_r(line, " \t\r\n", &save); w;
             w = strtok_r(NULL, " \t\r\n", &save))
            if (w[0] == '-' && (isalpha((unsigned char)w[1]) || w[1] == '_')
                && !names_option(yaml, w))
                fail_msg("%s: option %s is named nowhere in the output", path,
                         w);
    }
    fclose(fp);
}

/* The output accounts for every option the input gives: a key's comment
 * names it, or the closing list does, with a reason. */
static void test_every_option_named(void **state)
{
    static const char *const one[] = {
        "syntax.config", "cache.config", "legacy_cache.config",
        "split.config",  "dram.config",  "units.trace.config"};
    struct imported r = import_ok(DATA "qv100.config",
                                  DATA "qv100.trace.config", NULL);

    (void)state;
    assert_names_all(r.yaml, DATA "qv100.config");
    assert_names_all(r.yaml, DATA "qv100.trace.config");
    /* Named for a reason, not by chance. */
    assert_non_null(strstr(r.yaml, "#   -gpgpu_ptx_force_max_capability 70: "
                                   "superseded by"));
    assert_non_null(strstr(r.yaml, "#   -gpgpu_dual_issue_diff_exec_units 1: "
                                   "applies with"));
    assert_non_null(strstr(r.yaml, "#   -gpgpu_tensor_core_avail 1: the "
                                   "tensor-core pipeline, superseded"));
    assert_comment(r.yaml, "  enabled: true", "-gpgpu_gmem_skip_L1D 0");
    assert_comment(r.yaml, "  l1_shared: 128KiB",
                   "-gpgpu_adaptive_cache_config 1");
    free(r.yaml);
    for (size_t i = 0; i < sizeof one / sizeof one[0]; i++) {
        char path[128];
        snprintf(path, sizeof path, DATA "%s", one[i]);
        r = import_ok(path, NULL, NULL);
        assert_names_all(r.yaml, path);
        free(r.yaml);
    }
}

/* Options translated with others, given without them: each is named,
 * with what became of it. */
/* yaml with its comments' line breaks taken out: each newline, the
 * blanks and '#' after it and the blanks after those become one blank. */
static char *unwrapped(const char *yaml)
{
    char *flat = malloc(strlen(yaml) + 1), *q = flat;

    assert_non_null(flat);
    for (const char *p = yaml; *p;) {
        if (*p != '\n') {
            *q++ = *p++;
            continue;
        }
        p += strspn(p, "\n ");
        if (*p == '#')
            p += 1 + strspn(p + 1, " ");
        *q++ = ' ';
    }
    *q = '\0';
    return flat;
}

static void test_options_alone(void **state)
{
    static const struct {
        const char *text, *want;
    } cases[] = {
        {"-gpgpu_adaptive_cache_config 1\n",
         "-gpgpu_adaptive_cache_config 1 without a unified size"},
        {"-gpgpu_dual_issue_diff_exec_units 1\n",
         "-gpgpu_dual_issue_diff_exec_units 1: qualifies"},
        {"-gpgpu_gmem_skip_L1D 0\n", "-gpgpu_gmem_skip_L1D 0: global "
                                     "loads through L1"},
        {"-gpgpu_tensor_core_avail 1\n", "-gpgpu_tensor_core_avail 1: no "
                                         "tensor-core latency"},
        {"-gpgpu_num_sp_units 4\n", "-gpgpu_num_sp_units 4: given "
                                    "without the unit's latency"},
        {"-gpgpu_num_sfu_units 4\n", "-gpgpu_num_sfu_units 4: given"},
        {"-gpgpu_num_dp_units 4\n", "-gpgpu_num_dp_units 4: given"},
        {"-gpgpu_num_int_units 4\n", "-gpgpu_num_int_units 4: given"},
        {"-gpgpu_num_tensor_core_units 4\n",
         ""
         "-gpgpu_num_tensor_core_units 4: given"},
        {"-ptx_opcode_initiation_fp 1,2,1,1,4\n",
         ""
         "-ptx_opcode_initiation_fp 1,2,1,1,4: given"},
        {"-gpgpu_sub_core_model 1\n", "-gpgpu_sub_core_model 1: "
                                      "qualifies -gpgpu_num_sched_per_core"},
        {"-gpgpu_compute_capability_minor 5\n",
         "-gpgpu_compute_capability_minor 5: qualifies"},
        {"-gpgpu_ptx_force_max_capability 75\n"
         "-gpgpu_compute_capability_major 8\n",
         "-gpgpu_ptx_force_max_capability 75: superseded"},
        {"-gpgpu_max_insn_issue_per_warp 2\n"
         "-gpgpu_dual_issue_diff_exec_units 1\n",
         "-gpgpu_dual_issue_diff_exec_units 1: of different units"},
        {"-dram_elimnate_rw_turnaround 0\n",
         "-dram_elimnate_rw_turnaround 0: applies to the turnarounds"},
        {"-network_mode 1\n", "-network_mode 1: not the built-in "
                              "crossbar"},
        {"-trace_opcode_latency_initiation_spec_op_4 4,1\n",
         "-trace_opcode_latency_initiation_spec_op_4 4,1: latency of a "
         "specialized unit the input does not define"},
        {"-gpgpu_num_int_units 0\n-trace_opcode_latency_initiation_int 4,2\n",
         "(-gpgpu_num_int_units 0: none of their own"},
        {"-gpgpu_tensor_core_avail 0\n"
         "-trace_opcode_latency_initiation_tensor 32,8\n",
         "-gpgpu_tensor_core_avail 0: GPGPU-Sim would build no tensor-core"},
    };

    (void)state;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct ws_gpgpusim g;
        struct ws_err err;
        char *yaml, *flat;
        parse_ok(&g, cases[i].text);
        ws_err_clear(&err);
        if (ws_gpgpusim_translate(&g, NULL, &yaml, &err) < 0)
            fail_msg("%s: %s", cases[i].text, err.text);
        for (size_t j = 0; j < g.n; j++)
            if (!names_option(yaml, g.opt[j].name))
                fail_msg("%s: %s is named nowhere in the output", cases[i].text,
                         g.opt[j].name);
        flat = unwrapped(yaml);
        if (!strstr(flat, cases[i].want))
            fail_msg("%s: the output does not say '%s':\n%s", cases[i].text,
                     cases[i].want, yaml);
        free(flat);
        free(yaml);
        ws_gpgpusim_free(&g);
    }
}

/* -gpgpu_gmem_skip_L1D 1 without -gpgpu_cache:dl1 still turns L1 off. */
static void test_skip_l1_alone(void **state)
{
    struct ws_gpgpusim g;
    struct ws_err err;
    char *yaml;
    struct ws_gpu gpu;
    char path[64];
    FILE *fp;

    (void)state;
    parse_ok(&g, "# loads bypass L1\n-gpgpu_gmem_skip_L1D 1\n");
    ws_err_clear(&err);
    if (ws_gpgpusim_translate(&g, NULL, &yaml, &err) < 0)
        fail_msg("%s", err.text);
    assert_comment(yaml, "  enabled: false",
                   "-gpgpu_gmem_skip_L1D 1: global "
                   "loads skip L1");
    snprintf(path, sizeof path, "/tmp/ws-test-skip-%ld.yaml", (long)getpid());
    fp = fopen(path, "w");
    assert_non_null(fp);
    fputs(yaml, fp);
    fclose(fp);
    if (ws_cfg_load(&gpu, path, NULL, 0, &err) < 0)
        fail_msg("%s", err.text);
    remove(path);
    assert_false(gpu.l1.enabled);
    free(yaml);
    ws_gpgpusim_free(&g);
}

/* A trace.config without options is refused as an empty gpgpusim.config
 * is, naming it. */
static void test_empty_trace(void **state)
{
    static const char *const texts[] = {"", "# only a comment\n\n"};
    struct ws_err err;
    char path[64], *yaml;

    (void)state;
    snprintf(path, sizeof path, "/tmp/ws-test-trace-%ld.config",
             (long)getpid());
    for (size_t i = 0; i < 2; i++) {
        struct ws_gpgpusim_import in = {DATA "qv100.config", path, NULL};
        FILE *fp = fopen(path, "w");
        assert_non_null(fp);
        fputs(texts[i], fp);
        fclose(fp);
        ws_err_clear(&err);
        assert_int_equal(ws_gpgpusim_import(&in, &yaml, &err), -1);
        assert_null(yaml);
        ws_test_err(&err, path, 1, "no options");
    }
    remove(path);
}

/* Each built-in config printed as GPGPU-Sim options would need a writer;
 * instead: the import is deterministic and loads the same twice. */
static void test_deterministic(void **state)
{
    struct imported a = import_ok(DATA "qv100.config",
                                  DATA "qv100.trace.config", NULL);
    struct imported b = import_ok(DATA "qv100.config",
                                  DATA "qv100.trace.config", NULL);

    (void)state;
    assert_string_equal(a.yaml, b.yaml);
    free(a.yaml);
    free(b.yaml);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_syntax),
        cmocka_unit_test(test_syntax_errors),
        cmocka_unit_test(test_numbers),
        cmocka_unit_test(test_cache_strings),
        cmocka_unit_test(test_dram_timing),
        cmocka_unit_test(test_addr_map_and_spec),
        cmocka_unit_test(test_known),
        cmocka_unit_test(test_qv100),
        cmocka_unit_test(test_every_key_commented),
        cmocka_unit_test(test_families),
        cmocka_unit_test(test_base_choice),
        cmocka_unit_test(test_translation_errors),
        cmocka_unit_test(test_every_option_named),
        cmocka_unit_test(test_options_alone),
        cmocka_unit_test(test_skip_l1_alone),
        cmocka_unit_test(test_empty_trace),
        cmocka_unit_test(test_deterministic),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
