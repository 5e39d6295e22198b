package io.volumizer.docs;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the docs' checks and generators need of Markdown as GitHub renders it: the anchors its headings get, the
 * links a page holds (outside code), and table cells that render as written.
 */
final class Markdown {

    /** An inline link or image, {@code [text](destination "title")}; its text may hold one level of brackets. */
    private static final Pattern INLINE_LINK = Pattern.compile("\\[(?:[^\\[\\]]|\\[[^\\]]*\\])*\\]\\(\\s*<?([^)\\s>]*)>?(?:\\s+\"[^\"]*\")?\\s*\\)");
    /** A reference definition, {@code [label]: destination}. */
    private static final Pattern REFERENCE = Pattern.compile("^ {0,3}\\[[^\\]]+\\]:\\s*<?(\\S+?)>?(?:\\s+.*)?$");
    private static final Pattern ATX_HEADING = Pattern.compile("^ {0,3}(#{1,6})\\s+(.*?)(?:\\s+#+)?\\s*$");
    private static final Pattern FENCE = Pattern.compile("^ {0,3}(```|~~~)");
    private static final Pattern INLINE_CODE = Pattern.compile("(`+)(.+?)\\1");
    private static final Pattern HTML_ANCHOR = Pattern.compile("<a\\s+(?:name|id)=\"([^\"]+)\"", Pattern.CASE_INSENSITIVE);
    private static final Pattern HTML_TAG = Pattern.compile("<[^>]+>");
    /** What GitHub keeps of a heading's text in its anchor (github-slugger): letters, marks, digits, '_', '-', spaces. */
    private static final Pattern NOT_IN_ANCHOR = Pattern.compile("[^\\p{L}\\p{M}\\p{N}\\p{Pc} -]");

    /** A link of a page: its destination as written, and the line it is on (1-based). */
    record Link(String destination, int line) {
    }

    private Markdown() {
    }

    /** The anchor GitHub gives a heading of this text, before de-duplication. */
    static String anchor(String heading) {
        String text = INLINE_LINK.matcher(heading).replaceAll(match -> Matcher.quoteReplacement(linkText(match.group())));
        text = HTML_TAG.matcher(text).replaceAll("");
        text = text.replace("`", "");
        return NOT_IN_ANCHOR.matcher(text.strip().toLowerCase(Locale.ROOT)).replaceAll("").replace(' ', '-');
    }

    /** Every anchor of a page: its headings' (a repeated one suffixed -1, -2...) and its HTML anchors. */
    static List<String> anchors(String page) {
        Map<String, Integer> seen = new LinkedHashMap<>();
        List<String> anchors = new ArrayList<>();
        for (String line : outsideCode(page)) {
            Matcher heading = ATX_HEADING.matcher(line);
            if (heading.matches()) {
                String anchor = anchor(heading.group(2));
                int count = seen.merge(anchor, 1, Integer::sum);
                anchors.add(count == 1 ? anchor : anchor + "-" + (count - 1));
            }
            Matcher html = HTML_ANCHOR.matcher(line);
            while (html.find()) {
                anchors.add(html.group(1));
            }
        }
        return anchors;
    }

    /** Every link of a page outside code blocks and code spans, inline or by reference. */
    static List<Link> links(String page) {
        List<Link> links = new ArrayList<>();
        List<String> lines = outsideCode(page);
        for (int i = 0; i < lines.size(); i++) {
            String line = INLINE_CODE.matcher(lines.get(i)).replaceAll("");
            Matcher inline = INLINE_LINK.matcher(line);
            while (inline.find()) {
                links.add(new Link(inline.group(1), i + 1));
            }
            Matcher reference = REFERENCE.matcher(line);
            if (reference.matches()) {
                links.add(new Link(reference.group(1), i + 1));
            }
        }
        return links;
    }

    /** The page's lines, those inside fenced code blocks blanked (so that line numbers stay the file's). */
    static List<String> outsideCode(String page) {
        List<String> lines = new ArrayList<>();
        String fence = null;
        for (String line : page.split("\n", -1)) {
            Matcher opening = FENCE.matcher(line);
            if (fence == null && opening.find()) {
                fence = opening.group(1);
                lines.add("");
            } else if (fence != null) {
                if (line.strip().startsWith(fence)) {
                    fence = null;
                }
                lines.add("");
            } else {
                lines.add(line);
            }
        }
        return lines;
    }

    /** Text for a table cell that renders as written: no cell break, no HTML tag, no emphasis by accident. */
    static String cell(String text) {
        return text.replace("\\", "\\\\").replace("|", "\\|").replace("<", "&lt;").replace(">", "&gt;")
                .replace("*", "\\*").replace("\n", " ").strip();
    }

    /** Text for a paragraph that renders as written: a '<' outside code spans is no HTML tag. */
    static String prose(String text) {
        StringBuilder out = new StringBuilder();
        String[] parts = text.split("`", -1);
        for (int i = 0; i < parts.length; i++) {
            out.append(i % 2 == 0 ? parts[i].replace("<", "&lt;").replace(">", "&gt;") : parts[i]);
            if (i < parts.length - 1) {
                out.append('`');
            }
        }
        return out.toString();
    }

    /** A code span for {@code text}, whatever backticks it holds. */
    static String code(String text) {
        String ticks = text.contains("``") ? "```" : text.contains("`") ? "``" : "`";
        String pad = text.startsWith("`") || text.endsWith("`") ? " " : "";
        return ticks + pad + text + pad + ticks;
    }

    /** A code span inside a table cell, where even in code a '|' must be escaped to stay in its cell. */
    static String codeCell(String text) {
        return code(text.replace("\n", " ")).replace("|", "\\|");
    }

    private static String linkText(String link) {
        return link.substring(link.startsWith("!") ? 2 : 1, link.lastIndexOf("]("));
    }
}
