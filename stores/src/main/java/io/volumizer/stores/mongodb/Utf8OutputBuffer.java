package io.volumizer.stores.mongodb;

import java.nio.charset.StandardCharsets;

import org.bson.io.BasicOutputBuffer;

/**
 * A BSON output buffer that writes each string's UTF-8 bytes in one copy. The driver's buffer encodes strings
 * code point by code point, a bounds-checked write per byte: a quarter of the import TaskManager's samples in a
 * profile, the stored form being mostly text. Strings with surrogates, and names holding a NUL, take the driver's
 * own path, so that its encoding of unpaired surrogates and its error for such names stay exactly as they are.
 */
final class Utf8OutputBuffer extends BasicOutputBuffer {

    Utf8OutputBuffer(int initialSize) {
        super(initialSize);
    }

    @Override
    protected int writeCharacters(String text, boolean nameMustNotHoldNul) {
        if (hasSurrogate(text) || nameMustNotHoldNul && text.indexOf('\0') >= 0) {
            return super.writeCharacters(text, nameMustNotHoldNul);
        }
        byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);
        writeBytes(utf8, 0, utf8.length);
        writeByte(0);
        return utf8.length + 1;
    }

    private static boolean hasSurrogate(String text) {
        for (int i = 0; i < text.length(); i++) {
            if (Character.isSurrogate(text.charAt(i))) {
                return true;
            }
        }
        return false;
    }
}
