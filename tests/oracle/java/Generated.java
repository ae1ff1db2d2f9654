// Generated functions for the oracle.
package gen;

public class Gen {

    public int genFn0(int x) {
        Runnable r0 = () -> {
            System.out.println("}");
        };
        char d0 = '\'';
        return x;
    }

    @Deprecated
    private static int genFn1(int x)
    {
        String s1 = "} { \" }";
        for (int k = 0; k < 1; k++) {
            x += k;
        }
        String s1 = "} { \" }";
        // comment with } and {
        return x;
    }

    protected <T> int genFn2(
            int x,
            T y) throws Exception {
        char c2 = '{';
        Runnable r2 = () -> {
            System.out.println("}");
        };
        char d2 = '\'';
        /* block } comment { */
        return x;
    }

    int genFn3(int x) { return x + 3; }

    public int genFn4(int x) {
        /* block } comment { */
        int[] arr4 = { 4, 2, 3 };
        char d4 = '\'';
        return x;
    }

    @Deprecated
    private static int genFn5(int x)
    {
        /* block } comment { */
        String s5 = "} { \" }";
        return x;
    }

    protected <T> int genFn6(
            int x,
            T y) throws Exception {
        String s6 = "} { \" }";
        Runnable r6 = () -> {
            System.out.println("}");
        };
        char d6 = '\'';
        return x;
    }

    int genFn7(int x) { return x + 7; }

    public int genFn8(int x) {
        int[] arr8 = { 8, 2, 3 };
        String s8 = "} { \" }";
        if (x > 8) {
            x -= 8;
        }
        return x;
    }

    @Deprecated
    private static int genFn9(int x)
    {
        // comment with } and {
        return x;
    }

    protected <T> int genFn10(
            int x,
            T y) throws Exception {
        /* block } comment { */
        for (int k = 0; k < 10; k++) {
            x += k;
        }
        return x;
    }

    int genFn11(int x) { return x + 11; }

    public int genFn12(int x) {
        String s12 = "} { \" }";
        Runnable r12 = () -> {
            System.out.println("}");
        };
        char c12 = '{';
        return x;
    }

    @Deprecated
    private static int genFn13(int x)
    {
        /* block } comment { */
        return x;
    }

    protected <T> int genFn14(
            int x,
            T y) throws Exception {
        String s14 = "} { \" }";
        return x;
    }

    int genFn15(int x) { return x + 15; }

    public int genFn16(int x) {
        String s16 = "} { \" }";
        char c16 = '{';
        return x;
    }

    @Deprecated
    private static int genFn17(int x)
    {
        int[] arr17 = { 17, 2, 3 };
        Runnable r17 = () -> {
            System.out.println("}");
        };
        /* block } comment { */
        for (int k = 0; k < 17; k++) {
            x += k;
        }
        return x;
    }

    protected <T> int genFn18(
            int x,
            T y) throws Exception {
        int[] arr18 = { 18, 2, 3 };
        return x;
    }

    int genFn19(int x) { return x + 19; }

    public int genFn20(int x) {
        // comment with } and {
        char c20 = '{';
        if (x > 20) {
            x -= 20;
        }
        Runnable r20 = () -> {
            System.out.println("}");
        };
        return x;
    }

    @Deprecated
    private static int genFn21(int x)
    {
        Runnable r21 = () -> {
            System.out.println("}");
        };
        return x;
    }

    protected <T> int genFn22(
            int x,
            T y) throws Exception {
        Runnable r22 = () -> {
            System.out.println("}");
        };
        int[] arr22 = { 22, 2, 3 };
        return x;
    }

    int genFn23(int x) { return x + 23; }

    public int genFn24(int x) {
        // comment with } and {
        char c24 = '{';
        int[] arr24 = { 24, 2, 3 };
        // comment with } and {
        return x;
    }

    @Deprecated
    private static int genFn25(int x)
    {
        for (int k = 0; k < 25; k++) {
            x += k;
        }
        return x;
    }

    protected <T> int genFn26(
            int x,
            T y) throws Exception {
        char d26 = '\'';
        // comment with } and {
        Runnable r26 = () -> {
            System.out.println("}");
        };
        if (x > 26) {
            x -= 26;
        }
        return x;
    }

    int genFn27(int x) { return x + 27; }

    public int genFn28(int x) {
        int[] arr28 = { 28, 2, 3 };
        return x;
    }

    @Deprecated
    private static int genFn29(int x)
    {
        Runnable r29 = () -> {
            System.out.println("}");
        };
        if (x > 29) {
            x -= 29;
        }
        char d29 = '\'';
        return x;
    }

    protected <T> int genFn30(
            int x,
            T y) throws Exception {
        if (x > 30) {
            x -= 30;
        }
        return x;
    }

    int genFn31(int x) { return x + 31; }

    public int genFn32(int x) {
        if (x > 32) {
            x -= 32;
        }
        Runnable r32 = () -> {
            System.out.println("}");
        };
        char c32 = '{';
        char c32 = '{';
        return x;
    }

    @Deprecated
    private static int genFn33(int x)
    {
        for (int k = 0; k < 33; k++) {
            x += k;
        }
        int[] arr33 = { 33, 2, 3 };
        if (x > 33) {
            x -= 33;
        }
        for (int k = 0; k < 33; k++) {
            x += k;
        }
        return x;
    }

    protected <T> int genFn34(
            int x,
            T y) throws Exception {
        if (x > 34) {
            x -= 34;
        }
        return x;
    }

    int genFn35(int x) { return x + 35; }

    public int genFn36(int x) {
        int[] arr36 = { 36, 2, 3 };
        return x;
    }

    @Deprecated
    private static int genFn37(int x)
    {
        for (int k = 0; k < 37; k++) {
            x += k;
        }
        return x;
    }

    protected <T> int genFn38(
            int x,
            T y) throws Exception {
        Runnable r38 = () -> {
            System.out.println("}");
        };
        String s38 = "} { \" }";
        return x;
    }

    int genFn39(int x) { return x + 39; }

}
