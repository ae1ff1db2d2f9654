/* Hard cases for C: K&R and Allman, preprocessor, char literals. */
#include <stdio.h>
#include <string.h>

#define OPEN '{'
#define BLOCK(x) { x; }
#define MULTI_LINE(a) \
    do { \
        (a)++; \
    } while (0)

struct point {
    int x;
    int y;
};

typedef struct {
    char name[16];
} record_t;

static int
allman_style(int a)
{
    if (a > 0)
    {
        return a;
    }
    return -a;
}

int knr_style(int a) {
    char c = '}';
    char d = '\'';
    const char *s = "} { \" }";
    /* comment } { */
    // line comment {
    return a + c + d + (int)strlen(s);
}

static inline const char *
multi_line_signature(const char *first,
                     int second)
{
    return second ? first : "{";
}

int one_liner(void) { return 1; }

struct point *make_point(int x, int y) {
    static struct point p;
    p.x = x;
    p.y = y;
    return &p;
}

void (*get_handler(void))(int) {
    return NULL;
}

int main(int argc, char **argv) {
    struct point p = { 1, 2 };
    for (int i = 0; i < argc; i++) {
        printf("%s }\n", argv[i]);
    }
    return p.x;
}
