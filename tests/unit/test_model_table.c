/*
 * Unit tests of the table of built-in models (model/ws_model_table.c,
 * model/ws_model_def.h): the models in the order every output prints them,
 * lookup by name, each definition whole (a name its results carry, a
 * description, inputs that fit the shared buffer, a derivation and an
 * evaluation), shared input sets, and which model is a bound.
 *
 * Leaves out: the models' numbers (test_model_*.c) and their columns in
 * outputs (the command-line goldens).
 */
#include <string.h>

#include "ws_model_def.h"
#include "ws_test.h"

/* The order of the models' columns in sweeps, of run's lines and of
 * profile's parameters: existing results files depend on it, so these
 * keep their places and a new model goes after them. */
static const char *const want_order[] = {
    "mwp_cwp",   "mwp_cwp_l2", "mwp_cwp_l2_reuse", "tmm", "roofline",
    "qroofline", "aiq",
};
#define NWANT ((int)(sizeof want_order / sizeof want_order[0]))
static const char want_names[] = "mwp_cwp, mwp_cwp_l2, mwp_cwp_l2_reuse, "
                                 "tmm, roofline, qroofline, aiq";

static void test_order_and_lookup(void **state)
{
    (void)state;
    assert_true(ws_model_count() >= NWANT);
    for (int i = 0; i < NWANT; i++) {
        const struct ws_model_def *m = ws_model_nth(i);
        assert_non_null(m);
        assert_string_equal(m->name, want_order[i]);
        assert_ptr_equal(ws_model_find(want_order[i]), m);
    }
    assert_null(ws_model_nth(-1));
    assert_null(ws_model_nth(ws_model_count()));
    assert_null(ws_model_find("mwp"));
    assert_null(ws_model_find(""));
    assert_true(strncmp(ws_model_names(), want_names, strlen(want_names)) == 0);
}

/* Every input is a whole double inside the buffer, named once. */
static void test_fields(void **state)
{
    (void)state;
    for (int i = 0; i < ws_model_count(); i++) {
        const struct ws_model_def *m = ws_model_nth(i);
        assert_non_null(m->what);
        assert_true(strlen(m->what) > 0 && strlen(m->what) < 80);
        assert_non_null(m->derive);
        assert_non_null(m->evaluate);
        assert_true(m->nfields > 0 && m->nfields <= WS_MODEL_MAX_ELAST);
        for (int f = 0; f < m->nfields; f++) {
            assert_int_equal(m->fields[f].offset % sizeof(double), 0);
            assert_true(m->fields[f].offset + sizeof(double)
                        <= sizeof(union ws_model_params));
            assert_non_null(m->fields[f].what);
            for (int g = 0; g < f; g++)
                assert_string_not_equal(m->fields[f].name, m->fields[g].name);
        }
    }
}

/* A result carries its definition's name (which the model function also
 * writes, for callers that evaluate it by hand) and its kind. */
static void test_results_named(void **state)
{
    union ws_model_params in;
    struct ws_model_result r;

    (void)state;
    memset(&in, 0, sizeof in);
    for (int i = 0; i < ws_model_count(); i++) {
        const struct ws_model_def *m = ws_model_nth(i);
        ws_model_eval(m, &in, &r);
        assert_string_equal(r.model, m->name);
        assert_int_equal(r.bound, m->bound);
    }
}

/* A shared input set belongs to an earlier model of the table with the
 * same fields, which has its own. */
static void test_shared_inputs(void **state)
{
    int own = 0;

    (void)state;
    for (int i = 0; i < ws_model_count(); i++) {
        const struct ws_model_def *m = ws_model_nth(i), *o = m->inputs_of;
        int j = 0;
        if (!o) {
            own++;
            continue;
        }
        while (j < i && ws_model_nth(j) != o)
            j++;
        assert_true(j < i);
        assert_null(o->inputs_of);
        assert_ptr_equal(o->fields, m->fields);
        assert_ptr_equal(o->derive, m->derive);
    }
    /* At least mwp_cwp (for its family), tmm, roofline, qroofline, aiq. */
    assert_true(own >= 5);
    assert_int_equal(ws_model_find("roofline")->bound, 1);
    assert_int_equal(ws_model_find("mwp_cwp")->bound, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_order_and_lookup),
        cmocka_unit_test(test_fields),
        cmocka_unit_test(test_results_named),
        cmocka_unit_test(test_shared_inputs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
