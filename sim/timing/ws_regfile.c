/*
 * ws_regfile: register-bank conflicts and the reuse cache (see
 * ws_regfile.h).
 */
#include "ws_regfile.h"

#include <string.h>

static int ws_rfc_holds(const struct ws_rfc *rfc, uint32_t warp, uint8_t reg)
{
    if (rfc->warp != warp)
        return 0;
    for (uint8_t i = 0; i < rfc->n; i++)
        if (rfc->reg[i] == reg)
            return 1;
    return 0;
}

uint32_t ws_regfile_read(struct ws_rfc *rfc, uint32_t banks, uint32_t warp,
                         const struct ws_inst *in,
                         const struct ws_ctrl_entry *e, uint32_t *hits)
{
    uint32_t per_bank[64], worst = 0, hit = 0;

    if (banks > 64)
        banks = 64;
    /* only the banks there are: this runs at every issue */
    memset(per_bank, 0, banks * sizeof *per_bank);
    for (uint8_t i = 0; banks && i < in->nsrc; i++) {
        uint8_t r = in->src[i], dup = 0;
        for (uint8_t j = 0; j < i; j++)
            dup |= in->src[j] == r;
        if (dup)
            continue; /* one read serves every slot that names it */
        if (ws_rfc_holds(rfc, warp, r)) {
            hit++;
            continue;
        }
        if (++per_bank[r % banks] > worst)
            worst = per_bank[r % banks];
    }
    rfc->warp = warp;
    rfc->n = e ? e->nreuse : 0;
    for (uint8_t i = 0; i < rfc->n; i++)
        rfc->reg[i] = e->reuse_reg[i];
    if (hits)
        *hits = hit;
    return worst > 1 ? worst - 1 : 0;
}
