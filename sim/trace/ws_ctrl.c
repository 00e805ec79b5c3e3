/*
 * ws_ctrl: control bits of sm_70+ instructions (see ws_ctrl.h).
 */
#include "ws_ctrl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void ws_ctrl_unpack(uint32_t word, struct ws_ctrl *out)
{
    out->stall = (uint8_t)ws_ctrl_stall(word);
    out->yield = (uint8_t)ws_ctrl_yield(word);
    out->wbar = (uint8_t)ws_ctrl_wbar(word);
    out->rbar = (uint8_t)ws_ctrl_rbar(word);
    out->wait = (uint8_t)ws_ctrl_wait(word);
    out->reuse = (uint8_t)ws_ctrl_reuse(word);
}

int ws_ctrl_table_init(struct ws_ctrl_table *t, uint32_t last_pc)
{
    memset(t, 0, sizeof *t);
    t->n = (last_pc >> 4) + 1;
    t->e = calloc(t->n, sizeof *t->e);
    return t->e ? 0 : -1;
}

void ws_ctrl_table_free(struct ws_ctrl_table *t)
{
    free(t->e);
    memset(t, 0, sizeof *t);
}

uint32_t ws_ctrl_op_hash(const char *op)
{
    uint32_t h = 2166136261u; /* FNV-1a */

    for (; *op && *op != '.' && *op != ' '; op++)
        h = (h ^ (uint8_t)*op) * 16777619u;
    return h;
}

void ws_ctrl_format(uint32_t word, char *buf, size_t len)
{
    struct ws_ctrl c;
    char wait[7], reuse[5];

    ws_ctrl_unpack(word, &c);
    for (int i = 0; i < 6; i++)
        wait[i] = (c.wait >> i) & 1u ? (char)('0' + i) : '-';
    wait[6] = '\0';
    for (int i = 0; i < 4; i++)
        reuse[i] = (c.reuse >> i) & 1u ? "ABCD"[i] : '-';
    reuse[4] = '\0';
    snprintf(buf, len, "S%02u %c W%c R%c B%s U%s", c.stall, c.yield ? 'Y' : '-',
             c.wbar == WS_CTRL_NO_BAR ? '-' : (char)('0' + c.wbar),
             c.rbar == WS_CTRL_NO_BAR ? '-' : (char)('0' + c.rbar), wait,
             reuse);
}
