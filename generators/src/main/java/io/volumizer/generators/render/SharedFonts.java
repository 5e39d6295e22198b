package io.volumizer.generators.render;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.apache.pdfbox.cos.COSArray;
import org.apache.pdfbox.cos.COSBase;
import org.apache.pdfbox.cos.COSDictionary;
import org.apache.pdfbox.cos.COSName;
import org.apache.pdfbox.cos.COSObject;
import org.apache.pdfbox.cos.COSStream;
import org.apache.pdfbox.cos.COSString;
import org.apache.pdfbox.pdmodel.DefaultResourceCache;
import org.apache.pdfbox.pdmodel.font.PDFont;
import org.apache.pdfbox.pdmodel.font.PDType1Font;
import org.apache.pdfbox.pdmodel.font.encoding.GlyphList;

/**
 * A document's resource cache whose fonts are shared with the documents read before on the same thread when their
 * definitions are equal: a font whose dictionary (with all it refers to) holds no stream, so no embedded program
 * and no ToUnicode map, is defined by that content alone, the same in every file that writes it (a standard font in
 * an encoding, with its widths). Building such a font (its metrics, its encoding's glyph names) and its widths cache
 * again for every statement was a tenth of their reading (JFR). Per thread, as PDFBox's fonts are not thread-safe;
 * the {@value #MAX_FONTS} used last are kept. A shared Type 1 font knows its glyphs ({@link KnownGlyphs}).
 */
final class SharedFonts extends DefaultResourceCache {

    private static final int MAX_FONTS = 64;
    /** A dictionary nested deeper than this is not shared (and a reference cycle ends here). */
    private static final int MAX_DEPTH = 8;
    /**
     * A definition longer than this is not shared: a standard font's, widths and all, takes a few kilobytes, and a
     * crafted one (arrays of references to the same large arrays) would expand without end.
     */
    private static final int MAX_DEFINITION = 16 * 1024;
    private static final ThreadLocal<Map<String, PDFont>> FONTS = ThreadLocal.withInitial(() ->
            new LinkedHashMap<>(16, 0.75f, true) {
                @Override
                protected boolean removeEldestEntry(Map.Entry<String, PDFont> eldest) {
                    return size() > MAX_FONTS;
                }
            });

    @Override
    public PDFont getFont(COSObject indirect) {
        PDFont font = super.getFont(indirect);
        if (font != null) {
            return font;
        }
        String definition = definition(indirect.getObject());
        PDFont shared = definition == null ? null : FONTS.get().get(definition);
        if (shared != null) {
            super.put(indirect, shared); // this document's next use of it needs no definition
        }
        return shared;
    }

    @Override
    public void put(COSObject indirect, PDFont font) {
        String definition = definition(indirect.getObject());
        PDFont shared = definition == null ? font : KnownGlyphs.of(font);
        super.put(indirect, shared);
        if (definition != null) {
            FONTS.get().put(definition, shared);
        }
    }

    /**
     * A Type 1 font that keeps each code's width and Unicode once read: the text engine asks for both at every glyph,
     * and PDFBox looks them up by the glyph's name in maps each time (a tenth of the statements' reading, JFR). Only
     * for a font defined by its dictionary alone (no program, no ToUnicode map), which nothing changes once loaded.
     */
    static final class KnownGlyphs extends PDType1Font {

        private static final int CODES = 256;
        private final float[] widths = new float[CODES];
        private final String[] unicode = new String[CODES];
        private final boolean[] unicodeKnown = new boolean[CODES];
        /** The glyph list the Unicode was read with: the text engine passes its own, which another may not. */
        private GlyphList unicodeGlyphs;

        private KnownGlyphs(COSDictionary dictionary) throws IOException {
            super(dictionary);
            Arrays.fill(widths, Float.NaN);
        }

        /** The font as one that knows its glyphs, when it is a plain Type 1 font; otherwise as it is. */
        static PDFont of(PDFont font) {
            if (font.getClass() != PDType1Font.class) {
                return font;
            }
            try {
                return new KnownGlyphs(font.getCOSObject());
            } catch (IOException unreadable) {
                return font; // read as PDFBox read it
            }
        }

        @Override
        public float getWidth(int code) throws IOException {
            if (code < 0 || code >= CODES) {
                return super.getWidth(code);
            }
            if (Float.isNaN(widths[code])) {
                widths[code] = super.getWidth(code);
            }
            return widths[code];
        }

        @Override
        public String toUnicode(int code, GlyphList glyphs) {
            if (code < 0 || code >= CODES) {
                return super.toUnicode(code, glyphs);
            }
            if (glyphs != unicodeGlyphs) {
                Arrays.fill(unicodeKnown, false);
                unicodeGlyphs = glyphs;
            }
            if (!unicodeKnown[code]) {
                unicode[code] = super.toUnicode(code, glyphs);
                unicodeKnown[code] = true;
            }
            return unicode[code];
        }
    }

    /** The font dictionary's content as text, or null when it is not defined by it alone (a stream in it). */
    static String definition(COSBase font) {
        if (!(font instanceof COSDictionary)) {
            return null;
        }
        StringBuilder text = new StringBuilder();
        return write(font, text, 0) ? text.toString() : null;
    }

    private static boolean write(COSBase value, StringBuilder text, int depth) {
        if (depth > MAX_DEPTH || text.length() > MAX_DEFINITION || value instanceof COSStream) {
            return false;
        }
        if (value instanceof COSObject reference) {
            return write(reference.getObject(), text, depth + 1);
        }
        if (value instanceof COSDictionary dictionary) {
            List<COSName> keys = new ArrayList<>(dictionary.keySet());
            keys.sort(null);
            text.append("<<");
            for (COSName key : keys) {
                text.append('/').append(key.getName()).append(' ');
                if (!write(dictionary.getItem(key), text, depth + 1)) {
                    return false;
                }
            }
            text.append(">>");
            return true;
        }
        if (value instanceof COSArray array) {
            text.append('[');
            for (int i = 0; i < array.size(); i++) {
                if (!write(array.get(i), text, depth + 1)) {
                    return false;
                }
                text.append(' ');
            }
            text.append(']');
            return true;
        }
        if (value instanceof COSString string) {
            text.append('<').append(string.toHexString()).append('>');
            return true;
        }
        if (value instanceof COSName name) {
            text.append('/').append(name.getName());
            return true;
        }
        text.append(value); // a number, a boolean, null: their own text
        return true;
    }
}
