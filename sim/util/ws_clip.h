/*
 * ws_clip: user text quoted in an error message, cut short.
 *
 * A message is one line of at most WS_ERR_TEXT bytes that ends in
 * "(expected ...)"; a YAML key or value, a --set word or a path can be
 * longer than that, and quoting it whole would cut the end off.  Quoted
 * text keeps its first WS_CLIP bytes and gains "..."; a path keeps its
 * last WS_CLIP_PATH bytes, where the file name is.
 *
 * Leaves out: escaping (ws_err already turns line breaks into blanks).
 */
#ifndef WS_CLIP_H
#define WS_CLIP_H

#include <string.h>

#define WS_CLIP 64
#define WS_CLIP_PATH 160

struct ws_clip {
    char s[WS_CLIP_PATH + 4];
};

/* text, or its first WS_CLIP bytes and "..." (in c). */
static inline const char *ws_clip(struct ws_clip *c, const char *text)
{
    if (strlen(text) <= WS_CLIP)
        return text;
    memcpy(c->s, text, WS_CLIP);
    strcpy(c->s + WS_CLIP, "...");
    return c->s;
}

/* A path, or "..." and its last WS_CLIP_PATH bytes (in c). */
static inline const char *ws_clip_path(struct ws_clip *c, const char *path)
{
    size_t n = strlen(path);

    if (n <= WS_CLIP_PATH)
        return path;
    strcpy(c->s, "...");
    memcpy(c->s + 3, path + n - WS_CLIP_PATH, WS_CLIP_PATH + 1);
    return c->s;
}

#endif
