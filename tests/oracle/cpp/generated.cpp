// Generated functions for the oracle.
#include <string>

int gen_fn_0(int x) {
    if (x > 0) {
        x -= 0;
    }
    const char *s0 = "} { \" }";
    // comment with } and {
    return x;
}

template <typename T>
T gen_fn_1(T x)
{
    char c1 = '{';
    for (int k = 0; k < 1; k++) {
        x += k;
    }
    switch (x) {
    case 1: {
        x++;
        break;
    }
    default:
        break;
    }
    const char *s1 = "} { \" }";
    return x;
}

auto gen_fn_2(int x) -> int {
    auto s = R"(} raw {)";
    char c2 = '{';
    switch (x) {
    case 2: {
        x++;
        break;
    }
    default:
        break;
    }
    return x;
}

int gen_fn_3(int x) {
    /* block } comment { */
    // comment with } and {
    const char *s3 = "} { \" }";
    return x;
}

template <typename T>
T gen_fn_4(T x)
{
    if (x > 4) {
        x -= 4;
    }
    // comment with } and {
    if (x > 4) {
        x -= 4;
    }
    return x;
}

auto gen_fn_5(int x) -> int {
    auto s = R"(} raw {)";
    char c5 = '{';
    switch (x) {
    case 5: {
        x++;
        break;
    }
    default:
        break;
    }
    /* block } comment { */
    for (int k = 0; k < 5; k++) {
        x += k;
    }
    return x;
}

int gen_fn_6(int x) {
    switch (x) {
    case 6: {
        x++;
        break;
    }
    default:
        break;
    }
    int arr6[] = { 6, 2, 3 };
    if (x > 6) {
        x -= 6;
    }
    /* block } comment { */
    return x;
}

template <typename T>
T gen_fn_7(T x)
{
    for (int k = 0; k < 7; k++) {
        x += k;
    }
    return x;
}

auto gen_fn_8(int x) -> int {
    auto s = R"(} raw {)";
    const char *s8 = "} { \" }";
    /* block } comment { */
    switch (x) {
    case 8: {
        x++;
        break;
    }
    default:
        break;
    }
    for (int k = 0; k < 8; k++) {
        x += k;
    }
    return x;
}

int gen_fn_9(int x) {
    int arr9[] = { 9, 2, 3 };
    return x;
}

template <typename T>
T gen_fn_10(T x)
{
    for (int k = 0; k < 10; k++) {
        x += k;
    }
    char d10 = '\'';
    return x;
}

auto gen_fn_11(int x) -> int {
    auto s = R"(} raw {)";
    const char *s11 = "} { \" }";
    return x;
}

int gen_fn_12(int x) {
    // comment with } and {
    // comment with } and {
    return x;
}

template <typename T>
T gen_fn_13(T x)
{
    /* block } comment { */
    char d13 = '\'';
    return x;
}

auto gen_fn_14(int x) -> int {
    auto s = R"(} raw {)";
    switch (x) {
    case 14: {
        x++;
        break;
    }
    default:
        break;
    }
    /* block } comment { */
    return x;
}

int gen_fn_15(int x) {
    for (int k = 0; k < 15; k++) {
        x += k;
    }
    return x;
}

template <typename T>
T gen_fn_16(T x)
{
    if (x > 16) {
        x -= 16;
    }
    // comment with } and {
    return x;
}

auto gen_fn_17(int x) -> int {
    auto s = R"(} raw {)";
    int arr17[] = { 17, 2, 3 };
    return x;
}

int gen_fn_18(int x) {
    for (int k = 0; k < 18; k++) {
        x += k;
    }
    int arr18[] = { 18, 2, 3 };
    if (x > 18) {
        x -= 18;
    }
    char d18 = '\'';
    return x;
}

template <typename T>
T gen_fn_19(T x)
{
    const char *s19 = "} { \" }";
    return x;
}

auto gen_fn_20(int x) -> int {
    auto s = R"(} raw {)";
    switch (x) {
    case 20: {
        x++;
        break;
    }
    default:
        break;
    }
    int arr20[] = { 20, 2, 3 };
    for (int k = 0; k < 20; k++) {
        x += k;
    }
    /* block } comment { */
    return x;
}

int gen_fn_21(int x) {
    switch (x) {
    case 21: {
        x++;
        break;
    }
    default:
        break;
    }
    return x;
}

template <typename T>
T gen_fn_22(T x)
{
    if (x > 22) {
        x -= 22;
    }
    return x;
}

auto gen_fn_23(int x) -> int {
    auto s = R"(} raw {)";
    char d23 = '\'';
    return x;
}

int gen_fn_24(int x) {
    int arr24[] = { 24, 2, 3 };
    /* block } comment { */
    return x;
}

template <typename T>
T gen_fn_25(T x)
{
    /* block } comment { */
    char d25 = '\'';
    char d25 = '\'';
    for (int k = 0; k < 25; k++) {
        x += k;
    }
    return x;
}

auto gen_fn_26(int x) -> int {
    auto s = R"(} raw {)";
    int arr26[] = { 26, 2, 3 };
    // comment with } and {
    return x;
}

int gen_fn_27(int x) {
    const char *s27 = "} { \" }";
    if (x > 27) {
        x -= 27;
    }
    // comment with } and {
    int arr27[] = { 27, 2, 3 };
    return x;
}

template <typename T>
T gen_fn_28(T x)
{
    if (x > 28) {
        x -= 28;
    }
    return x;
}

auto gen_fn_29(int x) -> int {
    auto s = R"(} raw {)";
    /* block } comment { */
    return x;
}

class Gen {
public:

    int method_0(int x) const {
        int arr0[] = { 0, 2, 3 };
        switch (x) {
        case 0: {
            x++;
            break;
        }
        default:
            break;
        }
        char c0 = '{';
        return x;
    }

    int method_1(int x) const {
        // comment with } and {
        return x;
    }

    int method_2(int x) const {
        switch (x) {
        case 2: {
            x++;
            break;
        }
        default:
            break;
        }
        /* block } comment { */
        switch (x) {
        case 2: {
            x++;
            break;
        }
        default:
            break;
        }
        return x;
    }

    int method_3(int x) const {
        char d3 = '\'';
        return x;
    }

    int method_4(int x) const {
        // comment with } and {
        /* block } comment { */
        return x;
    }

    int method_5(int x) const {
        const char *s5 = "} { \" }";
        /* block } comment { */
        const char *s5 = "} { \" }";
        char c5 = '{';
        return x;
    }

    int method_6(int x) const {
        /* block } comment { */
        /* block } comment { */
        return x;
    }

    int method_7(int x) const {
        if (x > 7) {
            x -= 7;
        }
        /* block } comment { */
        for (int k = 0; k < 7; k++) {
            x += k;
        }
        return x;
    }

};
