package io.volumizer.generators.render;

import java.awt.image.BufferedImage;
import java.awt.image.DataBufferInt;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;

import javax.imageio.IIOImage;
import javax.imageio.ImageIO;
import javax.imageio.ImageWriteParam;
import javax.imageio.ImageWriter;
import javax.imageio.stream.MemoryCacheImageOutputStream;

import io.volumizer.generators.internal.Rng;
import io.volumizer.generators.model.Customer;

/**
 * Draws a customer's ID card (ID-1 proportions) as a JPEG: a tinted guilloche background, a face-like portrait
 * and the holder's name, date of birth and numbers. Every pixel is set by integer arithmetic (no system fonts, no
 * anti-aliasing), so the image is the same on every machine; the JDK's own JPEG encoder compresses it.
 */
public final class IdCardJpeg {

    private static final int WIDTH = 428;
    private static final int HEIGHT = 270;
    private static final float QUALITY = 0.85f;

    private IdCardJpeg() {
    }

    public static byte[] render(Customer customer, long seed) {
        Rng rng = Rng.of(seed, 0x1dca4dL, customer.index());
        BufferedImage image = new BufferedImage(WIDTH, HEIGHT, BufferedImage.TYPE_INT_RGB);
        int tint = rng.nextInt(360);
        background(image, tint, rng);
        BitmapFont.fill(image, 0, 0, WIDTH, 34, hsv(tint, 0.55, 0.45));
        BitmapFont.draw(image, StatementLayout.BANK_NAME, 12, 10, 2, 0xFFFFFF);
        BitmapFont.draw(image, "IDENTITY CARD", 330, 14, 1, 0xFFFFFF);
        portrait(image, 18, 50, 120, 150, rng);
        int text = 0x202020;
        BitmapFont.draw(image, "SURNAME", 156, 56, 1, 0x505050);
        BitmapFont.draw(image, customer.lastName(), 156, 66, 2, text);
        BitmapFont.draw(image, "GIVEN NAME", 156, 90, 1, 0x505050);
        BitmapFont.draw(image, customer.firstName(), 156, 100, 2, text);
        BitmapFont.draw(image, "DATE OF BIRTH", 156, 124, 1, 0x505050);
        BitmapFont.draw(image, customer.birthDate().toString(), 156, 134, 2, text);
        BitmapFont.draw(image, "CARD NO.", 156, 158, 1, 0x505050);
        BitmapFont.draw(image, "ID" + customer.number(), 156, 168, 2, text);
        BitmapFont.draw(image, "EXPIRES " + customer.since().plusYears(30), 156, 192, 1, text);
        BitmapFont.draw(image, customer.city() + ", " + customer.stateCode(), 156, 206, 1, text);
        machineReadableZone(image, customer);
        return jpeg(image);
    }

    private static void background(BufferedImage image, int tint, Rng rng) {
        int frequency = 7 + rng.nextInt(9);
        int phase = rng.nextInt(64);
        int[] palette = new int[32];
        for (int wave = 0; wave < palette.length; wave++) {
            palette[wave] = hsv(tint, 0.10 + wave / 200.0, 0.93 - wave / 400.0);
        }
        int[] pixels = ((DataBufferInt) image.getRaster().getDataBuffer()).getData();
        for (int y = 0; y < HEIGHT; y++) {
            for (int x = 0; x < WIDTH; x++) {
                // Interfering integer waves: a guilloche-like pattern with no floating-point drawing involved.
                int wave = ((x * frequency + y * 5 + phase) % 97 + (y * frequency - x * 3 + 1000 * 97) % 89) & 31;
                pixels[y * WIDTH + x] = palette[wave];
            }
        }
    }

    private static void portrait(BufferedImage image, int left, int top, int width, int height, Rng rng) {
        BitmapFont.fill(image, left, top, width, height, 0xD8DEE6);
        int skin = hsv(20 + rng.nextInt(20), 0.25 + rng.nextDouble() * 0.45, 0.45 + rng.nextDouble() * 0.5);
        int hair = hsv(20 + rng.nextInt(30), 0.3 + rng.nextDouble() * 0.6, 0.1 + rng.nextDouble() * 0.6);
        int cx = left + width / 2;
        int headRy = 46 + rng.nextInt(8);
        int headRx = 34 + rng.nextInt(8);
        int cy = top + 20 + headRy;
        ellipse(image, cx, top + height + 30, 58, 60, hsv(rng.nextInt(360), 0.5, 0.5));
        ellipse(image, cx, cy - 8, headRx + 6, headRy + 2, hair);
        ellipse(image, cx, cy, headRx, headRy, skin);
        int eyeY = cy - headRy / 5;
        ellipse(image, cx - headRx / 2, eyeY, 6, 4, 0xFFFFFF);
        ellipse(image, cx + headRx / 2, eyeY, 6, 4, 0xFFFFFF);
        ellipse(image, cx - headRx / 2, eyeY, 3, 3, hsv(rng.nextInt(360), 0.6, 0.35));
        ellipse(image, cx + headRx / 2, eyeY, 3, 3, hsv(rng.nextInt(360), 0.6, 0.35));
        BitmapFont.fill(image, cx - 2, eyeY + 8, 4, 14, darker(skin));
        BitmapFont.fill(image, cx - 12 - rng.nextInt(6), cy + headRy / 2, 30, 4, 0x8A3A3A);
    }

    private static void machineReadableZone(BufferedImage image, Customer customer) {
        BitmapFont.fill(image, 0, 226, WIDTH, 44, 0xF4F4F4);
        String name = (customer.lastName() + "<<" + customer.firstName()).replace(' ', '<');
        BitmapFont.draw(image, "IDUSA" + customer.number() + "<<<<<<<<<<<<<<<", 12, 232, 1, 0x101010);
        BitmapFont.draw(image, name + "<<<<<<<<<<<<<<<<<<<<", 12, 248, 1, 0x101010);
    }

    private static void ellipse(BufferedImage image, int cx, int cy, int rx, int ry, int rgb) {
        int[] pixels = ((DataBufferInt) image.getRaster().getDataBuffer()).getData();
        for (int y = -ry; y <= ry; y++) {
            for (int x = -rx; x <= rx; x++) {
                if ((long) x * x * ry * ry + (long) y * y * rx * rx <= (long) rx * rx * ry * ry) {
                    int px = cx + x;
                    int py = cy + y;
                    if (px >= 0 && py >= 0 && px < WIDTH && py < HEIGHT) {
                        pixels[py * WIDTH + px] = rgb;
                    }
                }
            }
        }
    }

    private static int darker(int rgb) {
        return ((rgb >> 16 & 0xFF) * 3 / 4) << 16 | ((rgb >> 8 & 0xFF) * 3 / 4) << 8 | (rgb & 0xFF) * 3 / 4;
    }

    /** HSV to RGB, rounded the same way everywhere (strict IEEE arithmetic on Java 17). */
    private static int hsv(int hue, double saturation, double value) {
        double c = value * saturation;
        double h = (hue % 360) / 60.0;
        double x = c * (1 - Math.abs(h % 2 - 1));
        double r;
        double g;
        double b;
        switch ((int) h) {
            case 0 -> { r = c; g = x; b = 0; }
            case 1 -> { r = x; g = c; b = 0; }
            case 2 -> { r = 0; g = c; b = x; }
            case 3 -> { r = 0; g = x; b = c; }
            case 4 -> { r = x; g = 0; b = c; }
            default -> { r = c; g = 0; b = x; }
        }
        double m = value - c;
        return (int) Math.round((r + m) * 255) << 16 | (int) Math.round((g + m) * 255) << 8 | (int) Math.round((b + m) * 255);
    }

    /** Looking an encoder up per image costs more than encoding: one per thread, reused. */
    private static final ThreadLocal<ImageWriter> ENCODER =
            ThreadLocal.withInitial(() -> ImageIO.getImageWritersByFormatName("jpeg").next());

    private static byte[] jpeg(BufferedImage image) {
        ImageWriter writer = ENCODER.get();
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(32 * 1024);
        try (MemoryCacheImageOutputStream out = new MemoryCacheImageOutputStream(bytes)) {
            writer.setOutput(out);
            ImageWriteParam parameters = writer.getDefaultWriteParam();
            parameters.setCompressionMode(ImageWriteParam.MODE_EXPLICIT);
            parameters.setCompressionQuality(QUALITY);
            writer.write(null, new IIOImage(image, null, null), parameters);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot encode an ID card in memory", e);
        } finally {
            writer.reset();
        }
        return bytes.toByteArray();
    }
}
