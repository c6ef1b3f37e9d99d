package org.jfrworkbench.samples;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.regex.Pattern;

/**
 * A checkout service in miniature: parse an order, price it, apply discount rules, render a receipt.
 * {@code before} compiles the discount rules' patterns for every line item (the known hot spot);
 * {@code after} compiles them once. Usage: {@code CheckoutService before|after SECONDS|stdin}.
 */
public final class CheckoutService {
    private static final String[] RULES = {"SKU-1\\d{3}", "SKU-2\\d{2}7", "SKU-\\d{3}9.*", "SKU-4(0|1)\\d{2}", "SKU-55\\d\\d"};
    private final boolean optimized;
    private final List<Pattern> compiledRules = new ArrayList<>();
    private final Map<String, Long> prices = new HashMap<>();
    private final Random random = new Random(42);

    CheckoutService(boolean optimized) {
        this.optimized = optimized;
        for (String rule : RULES) {
            compiledRules.add(Pattern.compile(rule));
        }
        for (int i = 0; i < 5000; i++) {
            prices.put("SKU-" + (1000 + i), 100L + (i * 37L) % 9000);
        }
    }

    public static void main(String[] args) throws Exception {
        boolean optimized = args.length > 0 && args[0].equals("after");
        RunFor run = RunFor.parse(args, 1, 10);
        CheckoutService service = new CheckoutService(optimized);
        long orders = 0;
        long revenue = 0;
        while (run.running()) {
            revenue += service.checkout(service.nextOrder());
            orders++;
        }
        System.out.println("checkout " + (optimized ? "after" : "before") + ": " + orders + " orders, revenue " + revenue);
    }

    String nextOrder() {
        StringBuilder sb = new StringBuilder("{\"customer\":\"c").append(random.nextInt(10_000)).append("\",\"items\":[");
        int n = 1 + random.nextInt(8);
        for (int i = 0; i < n; i++) {
            sb.append(i == 0 ? "" : ",").append("{\"sku\":\"SKU-").append(1000 + random.nextInt(5000))
                    .append("\",\"qty\":").append(1 + random.nextInt(3)).append('}');
        }
        return sb.append("]}").toString();
    }

    long checkout(String json) {
        List<String[]> items = parseItems(json);
        long total = 0;
        for (String[] item : items) {
            long price = prices.getOrDefault(item[0], 0L) * Long.parseLong(item[1]);
            total += price - discount(item[0], price);
        }
        return renderReceipt(items, total).length() + total;
    }

    static List<String[]> parseItems(String json) {
        List<String[]> items = new ArrayList<>();
        int at = 0;
        while ((at = json.indexOf("\"sku\":\"", at)) >= 0) {
            int skuEnd = json.indexOf('"', at + 7);
            int qtyAt = json.indexOf("\"qty\":", skuEnd) + 6;
            int qtyEnd = json.indexOf('}', qtyAt);
            items.add(new String[] {json.substring(at + 7, skuEnd), json.substring(qtyAt, qtyEnd)});
            at = qtyEnd;
        }
        return items;
    }

    long discount(String sku, long price) {
        long off = 0;
        for (int i = 0; i < RULES.length; i++) {
            Pattern p = optimized ? compiledRules.get(i) : Pattern.compile(RULES[i]);
            if (p.matcher(sku).matches()) {
                off += price / (10 + i);
            }
        }
        return off;
    }

    static String renderReceipt(List<String[]> items, long total) {
        StringBuilder sb = new StringBuilder();
        for (String[] item : items) {
            sb.append(String.format("%-10s x%s%n", item[0], item[1]));
        }
        return sb.append("total ").append(total / 100).append('.').append(total % 100).toString();
    }
}
