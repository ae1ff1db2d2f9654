// Hard cases for Java: annotations, text blocks, anonymous classes, lambdas.
package hard;

import java.util.List;

public class Hard<T extends Comparable<T>> {
    private final String name = "}";

    public Hard() {
        this(null);
    }

    public Hard(String n) {
        System.out.println(n + "{");
    }

    @Override
    public String toString() {
        return "Hard{" + name + "}";
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    public static <U> List<U> generic(
            List<U> items,
            int limit) throws Exception {
        char c = '}';
        char q = '\'';
        String block = """
            text block with } and { and "quotes"
            """;
        return items;
    }

    public void anonymous() {
        Runnable r = new Runnable() {
            @Override
            public void run() {
                System.out.println("}");
            }
        };
        r.run();
    }

    public int lambdas(List<Integer> xs) {
        xs.forEach(x -> {
            System.out.println(x);
        });
        return xs.stream().map(x -> x + 1).reduce(0, (a, b) -> a + b);
    }

    static class Nested {
        void nestedMethod() { }
    }

    interface Greeter {
        String greet(String who);

        default String hello() {
            return greet("{world}");
        }
    }

    enum Level {
        LOW {
            @Override
            int weight() {
                return 1;
            }
        },
        HIGH;

        int weight() {
            return 2;
        }
    }
}
