package org.jfrworkbench.cli;

import java.util.Locale;

import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** Parses sizes like {@code 1048576}, {@code 512k}, {@code 200m}, {@code 1g}. */
public final class SizeConverter implements ITypeConverter<Long> {
    @Override
    public Long convert(String value) {
        String v = value.trim().toLowerCase(Locale.ROOT);
        long unit = 1;
        if (v.endsWith("b")) {
            v = v.substring(0, v.length() - 1);
        }
        if (!v.isEmpty()) {
            switch (v.charAt(v.length() - 1)) {
                case 'k' -> unit = 1L << 10;
                case 'm' -> unit = 1L << 20;
                case 'g' -> unit = 1L << 30;
                case 't' -> unit = 1L << 40;
                default -> unit = 1;
            }
        }
        if (unit > 1) {
            v = v.substring(0, v.length() - 1);
        }
        try {
            long n = Long.parseLong(v);
            if (n <= 0 || n > Long.MAX_VALUE / unit) {
                throw new TypeConversionException("size must be positive: " + value);
            }
            return n * unit;
        } catch (NumberFormatException e) {
            throw new TypeConversionException("not a size (e.g. 500m, 1g): " + value);
        }
    }
}
