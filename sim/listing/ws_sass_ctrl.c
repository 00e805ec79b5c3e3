/*
 * ws_sass_ctrl: a listing function's control bits as a table by PC (see
 * ws_sass.h and trace/ws_ctrl.h).
 *
 * The registers a reuse flag keeps come from the operand text: cuobjdump
 * prints ".reuse" on exactly the operands whose flags are set, so the text
 * names the register without knowing which operand slot an encoding bit
 * means for each instruction format.
 */
#include "ws_sass.h"

#include <string.h>

#include "trace/ws_ctrl.h"

static void ws_sass_ctrl_reuse(const struct ws_sass *s,
                               const struct ws_sass_inst *in,
                               struct ws_ctrl_entry *e)
{
    for (uint32_t k = 0; k < in->nopnd && e->nreuse < WS_CTRL_MAX_REUSE; k++) {
        const struct ws_opnd *o = &s->opnds[in->opnd + k];
        if (o->kind == WS_OPND_REG && o->reg >= 0 && o->reg < 255
            && strstr(ws_strtab_str(&s->strs, o->text), ".reuse"))
            e->reuse_reg[e->nreuse++] = (uint8_t)o->reg;
    }
}

int ws_sass_ctrl_table(const struct ws_sass *s, const struct ws_sass_func *f,
                       struct ws_ctrl_table *t)
{
    const struct ws_sass_inst *in = s->insts + f->first;
    uint32_t last = f->ninst ? in[f->ninst - 1].pc : 0;

    /* Code is dense, one instruction per 16 bytes: a function whose
     * offsets leave most slots empty (a hostile or corrupt listing, an
     * instruction at 0xfffffff0) gets no table rather than gigabytes of
     * one, and runs on the scoreboard. */
    if ((uint64_t)(last >> 4) > 2 * (uint64_t)f->ninst + 64) {
        memset(t, 0, sizeof *t);
        return 0;
    }
    if (ws_ctrl_table_init(t, last) < 0)
        return -1;
    for (uint32_t i = 0; i < f->ninst; i++) {
        struct ws_ctrl_entry *e;
        if (!in[i].ctrl || (in[i].pc & 15u))
            continue;
        e = &t->e[in[i].pc >> 4];
        e->word = in[i].ctrl;
        e->op_hash = ws_ctrl_op_hash(ws_strtab_str(&s->strs, in[i].op));
        ws_sass_ctrl_reuse(s, &in[i], e);
        t->known++;
    }
    t->complete = f->ninst > 0 && t->known == f->ninst;
    t->source = s->path;
    return 0;
}
