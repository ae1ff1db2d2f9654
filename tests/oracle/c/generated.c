/* Generated functions for the oracle. */
#include <stddef.h>

int gen_fn_0(int x) {
    switch (x) {
    case 0: {
        x++;
        break;
    }
    default:
        break;
    }
    const char *s0 = "} { \" }";
    return x;
}

static int
gen_fn_1(int x)
{
    char d1 = '\'';
    char c1 = '{';
    return x;
}

int gen_fn_2(int x,
             const char *y)
{
    const char *s2 = "} { \" }";
    int arr2[] = { 2, 2, 3 };
    char c2 = '{';
    return x;
}

int gen_fn_3(int x) { return x + 3; }

int gen_fn_4(int x) {
    char c4 = '{';
    return x;
}

static int
gen_fn_5(int x)
{
    int arr5[] = { 5, 2, 3 };
    int arr5[] = { 5, 2, 3 };
    char d5 = '\'';
    switch (x) {
    case 5: {
        x++;
        break;
    }
    default:
        break;
    }
    return x;
}

int gen_fn_6(int x,
             const char *y)
{
    char c6 = '{';
    int arr6[] = { 6, 2, 3 };
    return x;
}

int gen_fn_7(int x) { return x + 7; }

int gen_fn_8(int x) {
    char c8 = '{';
    // comment with } and {
    char d8 = '\'';
    return x;
}

static int
gen_fn_9(int x)
{
    /* block } comment { */
    for (int k = 0; k < 9; k++) {
        x += k;
    }
    switch (x) {
    case 9: {
        x++;
        break;
    }
    default:
        break;
    }
    int arr9[] = { 9, 2, 3 };
    return x;
}

int gen_fn_10(int x,
             const char *y)
{
    char c10 = '{';
    const char *s10 = "} { \" }";
    if (x > 10) {
        x -= 10;
    }
    switch (x) {
    case 10: {
        x++;
        break;
    }
    default:
        break;
    }
    return x;
}

int gen_fn_11(int x) { return x + 11; }

int gen_fn_12(int x) {
    for (int k = 0; k < 12; k++) {
        x += k;
    }
    if (x > 12) {
        x -= 12;
    }
    if (x > 12) {
        x -= 12;
    }
    return x;
}

static int
gen_fn_13(int x)
{
    /* block } comment { */
    return x;
}

int gen_fn_14(int x,
             const char *y)
{
    if (x > 14) {
        x -= 14;
    }
    return x;
}

int gen_fn_15(int x) { return x + 15; }

int gen_fn_16(int x) {
    if (x > 16) {
        x -= 16;
    }
    for (int k = 0; k < 16; k++) {
        x += k;
    }
    char d16 = '\'';
    switch (x) {
    case 16: {
        x++;
        break;
    }
    default:
        break;
    }
    return x;
}

static int
gen_fn_17(int x)
{
    if (x > 17) {
        x -= 17;
    }
    char d17 = '\'';
    switch (x) {
    case 17: {
        x++;
        break;
    }
    default:
        break;
    }
    return x;
}

int gen_fn_18(int x,
             const char *y)
{
    if (x > 18) {
        x -= 18;
    }
    // comment with } and {
    // comment with } and {
    char c18 = '{';
    return x;
}

int gen_fn_19(int x) { return x + 19; }

int gen_fn_20(int x) {
    /* block } comment { */
    int arr20[] = { 20, 2, 3 };
    switch (x) {
    case 20: {
        x++;
        break;
    }
    default:
        break;
    }
    int arr20[] = { 20, 2, 3 };
    return x;
}

static int
gen_fn_21(int x)
{
    // comment with } and {
    for (int k = 0; k < 21; k++) {
        x += k;
    }
    return x;
}

int gen_fn_22(int x,
             const char *y)
{
    // comment with } and {
    if (x > 22) {
        x -= 22;
    }
    // comment with } and {
    for (int k = 0; k < 22; k++) {
        x += k;
    }
    return x;
}

int gen_fn_23(int x) { return x + 23; }

int gen_fn_24(int x) {
    const char *s24 = "} { \" }";
    switch (x) {
    case 24: {
        x++;
        break;
    }
    default:
        break;
    }
    int arr24[] = { 24, 2, 3 };
    return x;
}

static int
gen_fn_25(int x)
{
    // comment with } and {
    return x;
}

int gen_fn_26(int x,
             const char *y)
{
    char c26 = '{';
    switch (x) {
    case 26: {
        x++;
        break;
    }
    default:
        break;
    }
    int arr26[] = { 26, 2, 3 };
    char c26 = '{';
    return x;
}

int gen_fn_27(int x) { return x + 27; }

int gen_fn_28(int x) {
    for (int k = 0; k < 28; k++) {
        x += k;
    }
    for (int k = 0; k < 28; k++) {
        x += k;
    }
    int arr28[] = { 28, 2, 3 };
    return x;
}

static int
gen_fn_29(int x)
{
    const char *s29 = "} { \" }";
    return x;
}

int gen_fn_30(int x,
             const char *y)
{
    if (x > 30) {
        x -= 30;
    }
    int arr30[] = { 30, 2, 3 };
    char d30 = '\'';
    if (x > 30) {
        x -= 30;
    }
    return x;
}

int gen_fn_31(int x) { return x + 31; }

int gen_fn_32(int x) {
    switch (x) {
    case 32: {
        x++;
        break;
    }
    default:
        break;
    }
    for (int k = 0; k < 32; k++) {
        x += k;
    }
    /* block } comment { */
    // comment with } and {
    return x;
}

static int
gen_fn_33(int x)
{
    char c33 = '{';
    int arr33[] = { 33, 2, 3 };
    return x;
}

int gen_fn_34(int x,
             const char *y)
{
    char c34 = '{';
    return x;
}

int gen_fn_35(int x) { return x + 35; }

int gen_fn_36(int x) {
    // comment with } and {
    char c36 = '{';
    if (x > 36) {
        x -= 36;
    }
    return x;
}

static int
gen_fn_37(int x)
{
    // comment with } and {
    // comment with } and {
    char c37 = '{';
    switch (x) {
    case 37: {
        x++;
        break;
    }
    default:
        break;
    }
    return x;
}

int gen_fn_38(int x,
             const char *y)
{
    for (int k = 0; k < 38; k++) {
        x += k;
    }
    switch (x) {
    case 38: {
        x++;
        break;
    }
    default:
        break;
    }
    for (int k = 0; k < 38; k++) {
        x += k;
    }
    return x;
}

int gen_fn_39(int x) { return x + 39; }
