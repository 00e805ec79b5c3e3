/*
 * Unit tests of sim/util/ws_utf8.c: which byte sequences are valid UTF-8,
 * U+FFFD replacement, and that JSON built from invalid input text keeps its
 * keys (jansson's json_string returns NULL for such text, and the key used
 * to vanish silently).
 */
#include <stdlib.h>
#include <string.h>

#include "util/ws_utf8.h"
#include "ws_test.h"

#define FFFD "\xEF\xBF\xBD"

static void test_valid(void **state)
{
    static const char *const good[] = {
        "",
        "saxpy",
        "_Z6vecAddPKfS0_Pfi",
        "caf\xC3\xA9",
        "\xE2\x82\xAC",
        "\xF0\x9F\x98\x80",
        "\xED\x9F\xBF",
        "\xF4\x8F\xBF\xBF",
        "\x7F",
    };
    static const char *const bad[] = {
        "\x80",
        "a\xFF",
        "\xC0\xAF",
        "\xC1\xBF",
        "\xE0\x80\xAF",
        "\xED\xA0\x80",
        "\xF0\x80\x80\xAF",
        "\xF4\x90\x80\x80",
        "\xF5\x80\x80\x80",
        "\xC3",
        "\xE2\x82",
        "\xF0\x9F\x98",
        "\xE2\x28\xA1",
    };

    (void)state;
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++)
        if (!ws_utf8_valid(good[i]))
            fail_msg("good case %zu rejected", i);
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        if (ws_utf8_valid(bad[i]))
            fail_msg("bad case %zu accepted", i);
    assert_int_equal(ws_utf8_seq_len((const unsigned char *)"\xE2\x82\xAC", 2),
                     0);
    assert_int_equal(ws_utf8_seq_len((const unsigned char *)"\xE2\x82\xAC", 3),
                     3);
}

static void test_sanitize(void **state)
{
    static const struct {
        const char *in, *out;
    } cases[] = {
        {"plain", "plain"},
        {"caf\xC3\xA9", "caf\xC3\xA9"},
        {"k\xFF", "k" FFFD},
        {"\xC3(", FFFD "("},                   /* lead byte cut short */
        {"\xED\xA0\x80x", FFFD FFFD FFFD "x"}, /* surrogate: each byte */
        {"\xE2\x82", FFFD FFFD},               /* truncated at the end */
        {"a\xC0\xAF"
         "b\xE2\x82\xAC",
         "a" FFFD FFFD "b\xE2\x82\xAC"},
    };

    (void)state;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *s = ws_utf8_sanitize(cases[i].in);
        assert_non_null(s);
        assert_string_equal(s, cases[i].out);
        assert_true(ws_utf8_valid(s));
        free(s);
    }
}

/* The JSON keeps every key, with U+FFFD where the bad bytes were. */
static void test_json(void **state)
{
    json_t *o = json_object(), *name = ws_utf8_json_string("vec\xFF"
                                                           "add");
    char *text;

    (void)state;
    assert_null(json_string("vec\xFF"
                            "add")); /* what went wrong before */
    assert_non_null(name);
    assert_string_equal(json_string_value(name), "vec" FFFD "add");
    json_object_set_new(o, "name", name);
    assert_int_equal(ws_utf8_json_set(o, "FROB\xC3", json_integer(3)), 0);
    assert_int_equal(ws_utf8_json_set(o, "FFMA", json_integer(1)), 0);
    assert_int_equal(json_object_size(o), 3);
    assert_non_null(json_object_get(o, "FROB" FFFD));
    assert_true(json_is_null(ws_utf8_json_string(NULL)));
    text = json_dumps(o, JSON_SORT_KEYS | JSON_ENSURE_ASCII);
    assert_string_equal(text, "{\"FFMA\": 1, \"FROB\\uFFFD\": 3, "
                              "\"name\": \"vec\\uFFFDadd\"}");
    free(text);
    json_decref(o);
}

/* A copy for a message: control bytes replaced, the text whole when it
 * fits (its last character too), cut only between characters. */
static void test_copy_shown(void **state)
{
    char buf[6], big[32];

    (void)state;
    ws_utf8_copy_shown(big, sizeof big, "caf\xC3\xA9", '?');
    assert_string_equal(big, "caf\xC3\xA9");
    ws_utf8_copy_shown(big, sizeof big, "x \xE2\x82\xAC", '?');
    assert_string_equal(big, "x \xE2\x82\xAC");
    ws_utf8_copy_shown(big, sizeof big,
                       "a\nb\x7f"
                       "c\td",
                       ' ');
    assert_string_equal(big, "a b c d");
    ws_utf8_copy_shown(buf, sizeof buf, "ab\x01\xC3\xA9z", '?');
    assert_string_equal(buf, "ab?\xC3\xA9"); /* 5 bytes: it fits */
    ws_utf8_copy_shown(buf, sizeof buf, "abc\xE2\x82\xAC", '?');
    assert_string_equal(buf, "abc"); /* the euro would not */
    ws_utf8_copy_shown(buf, sizeof buf, "abcde\xC3\xA9", '?');
    assert_string_equal(buf, "abcde");
    ws_utf8_copy_shown(buf, 1, "abc", '?');
    assert_string_equal(buf, "");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_valid),
        cmocka_unit_test(test_sanitize),
        cmocka_unit_test(test_json),
        cmocka_unit_test(test_copy_shown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
