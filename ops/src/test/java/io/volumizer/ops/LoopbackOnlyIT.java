package io.volumizer.ops;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import io.volumizer.ops.services.LocalServices;

/**
 * Every local service {@code bin/volumizer up} started listens on the loopback interface only: the listening TCP
 * sockets of their processes, as {@code ss} lists them, have no other local address.
 */
class LoopbackOnlyIT {

    private static final Pattern LISTENING = Pattern.compile("^\\S+\\s+\\d+\\s+\\d+\\s+(\\S+):(\\d+)\\s+.*pid=(\\d+),");

    @Test
    void everySocketOurServicesListenOnIsOnLoopback() throws Exception {
        Map<Long, String> services = runningServices();
        assertThat(services).as("services started by bin/volumizer up (LocalServices.running)")
                .hasSizeGreaterThanOrEqualTo(7);

        List<String> listening = new ArrayList<>();
        List<String> exposed = new ArrayList<>();
        for (String line : ss()) {
            Matcher socket = LISTENING.matcher(line);
            if (!socket.find()) {
                continue;
            }
            String service = services.get(Long.parseLong(socket.group(3)));
            if (service == null) {
                continue;
            }
            String address = socket.group(1);
            String described = service + " " + address + ":" + socket.group(2);
            listening.add(described);
            if (!address.equals("127.0.0.1") && !address.equals("[::1]") && !address.equals("[::ffff:127.0.0.1]")) {
                exposed.add(described);
            }
        }

        assertThat(listening).as("sockets of our services").isNotEmpty();
        assertThat(exposed).as("sockets listening beyond loopback, among %s", listening).isEmpty();
    }

    /** PID → service, of the services that run. */
    private static Map<Long, String> runningServices() {
        Map<Long, String> services = new HashMap<>();
        LocalServices.ofThisCheckout().running().forEach((service, pid) -> services.put(pid, service));
        return services;
    }

    private static List<String> ss() throws Exception {
        Process process = new ProcessBuilder("ss", "-ltnpH").redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor()).as(output).isZero();
        return output.lines().toList();
    }
}
