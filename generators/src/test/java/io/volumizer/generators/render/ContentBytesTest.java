package io.volumizer.generators.render;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.util.Arrays;
import java.util.Random;

import org.apache.pdfbox.io.RandomAccessRead;
import org.apache.pdfbox.io.RandomAccessReadBuffer;
import org.junit.jupiter.api.Test;

/** The page content's reader answers every call as PDFBox's own buffer over the same bytes does. */
class ContentBytesTest {

    @Test
    void everyReadPeekRewindAndSeekAnswersAsPdfBoxsBuffer() throws IOException {
        Random random = new Random(42);
        byte[] bytes = new byte[300];
        random.nextBytes(bytes);
        try (RandomAccessRead ours = new FileText.ContentBytes(bytes);
                RandomAccessRead pdfBox = new RandomAccessReadBuffer(bytes)) {
            for (int step = 0; step < 5_000; step++) {
                int operation = random.nextInt(6);
                switch (operation) {
                    case 0 -> assertThat(ours.read()).isEqualTo(pdfBox.read());
                    case 1 -> assertThat(ours.peek()).isEqualTo(pdfBox.peek());
                    case 2 -> {
                        int back = (int) Math.min(ours.getPosition(), random.nextInt(4));
                        ours.rewind(back);
                        pdfBox.rewind(back);
                    }
                    case 3 -> {
                        long to = random.nextInt(bytes.length + 20);
                        ours.seek(to);
                        pdfBox.seek(to);
                    }
                    case 4 -> {
                        byte[] mine = new byte[random.nextInt(40)];
                        byte[] theirs = new byte[mine.length];
                        assertThat(ours.read(mine, 0, mine.length)).isEqualTo(pdfBox.read(theirs, 0, theirs.length));
                        assertThat(mine).isEqualTo(theirs);
                    }
                    default -> {
                        long start = random.nextInt(bytes.length);
                        long length = random.nextInt((int) (bytes.length - start) + 1);
                        try (RandomAccessRead view = ours.createView(start, length)) {
                            byte[] read = new byte[(int) length];
                            view.readFully(read);
                            assertThat(read).isEqualTo(Arrays.copyOfRange(bytes, (int) start, (int) (start + length)));
                        }
                    }
                }
                assertThat(ours.getPosition()).as("after operation %d", operation).isEqualTo(pdfBox.getPosition());
                assertThat(ours.isEOF()).isEqualTo(pdfBox.isEOF());
                assertThat(ours.available()).isEqualTo(pdfBox.available());
            }
            assertThat(ours.length()).isEqualTo(pdfBox.length());
            assertThatThrownBy(() -> ours.seek(-1)).isInstanceOf(IOException.class);
        }
    }

    @Test
    void aClosedReaderRefusesToRead() throws IOException {
        RandomAccessRead reader = new FileText.ContentBytes(new byte[] {1, 2});
        reader.close();
        assertThat(reader.isClosed()).isTrue();
        assertThatThrownBy(reader::read).isInstanceOf(IOException.class);
        assertThatThrownBy(reader::peek).isInstanceOf(IOException.class);
    }
}
