package io.volumizer.api.auth;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The proxies in front of the API (an ingress), as addresses or CIDR networks, and the client a request comes from:
 * its peer, unless the peer is a trusted proxy, then the last address of {@code X-Forwarded-For} that no trusted
 * proxy holds, walking from the right: the one the outermost trusted proxy appended, never an entry the client wrote
 * itself. Written here rather than taken from a library: twenty lines of byte masks against a dependency for them.
 */
public final class TrustedProxies {

    /** A literal IPv4 address, or an IPv6 one (a colon is never looked up as a name): anything else is no address. */
    private static final Pattern ADDRESS = Pattern.compile("\\d{1,3}(\\.\\d{1,3}){3}|[0-9A-Fa-f.]*:[0-9A-Fa-f:.]{1,44}");

    private record Network(byte[] address, int prefix) {

        boolean contains(byte[] candidate) {
            if (candidate.length != address.length) {
                return false;
            }
            int bits = prefix;
            for (int i = 0; i < address.length && bits > 0; i++, bits -= 8) {
                int mask = bits >= 8 ? 0xff : 0xff << (8 - bits) & 0xff;
                if ((address[i] & mask) != (candidate[i] & mask)) {
                    return false;
                }
            }
            return true;
        }
    }

    private final List<Network> networks;

    /**
     * @param proxies addresses ({@code 10.0.0.7}) and networks ({@code 10.0.0.0/8}, {@code fd00::/8})
     * @throws IllegalArgumentException naming the first that is neither
     */
    public TrustedProxies(List<String> proxies) {
        this.networks = proxies.stream().map(TrustedProxies::network).toList();
    }

    private static Network network(String text) {
        String[] parts = text.strip().split("/", 2);
        byte[] address = parse(parts[0]);
        if (address == null) {
            throw new IllegalArgumentException("'" + text + "' is not an IP address or CIDR network");
        }
        int prefix = address.length * 8;
        if (parts.length == 2) {
            try {
                prefix = Integer.parseInt(parts[1]);
            } catch (NumberFormatException e) {
                prefix = -1;
            }
            if (prefix < 0 || prefix > address.length * 8) {
                throw new IllegalArgumentException("'" + text + "' has a prefix length outside 0.." + address.length * 8);
            }
        }
        return new Network(address, prefix);
    }

    /** The address's bytes, or null when the text is no literal address (never looked up as a name). */
    private static byte[] parse(String text) {
        if (!ADDRESS.matcher(text).matches()) {
            return null;
        }
        try {
            return InetAddress.getByName(text).getAddress();
        } catch (UnknownHostException e) {
            return null;
        }
    }

    public boolean isEmpty() {
        return networks.isEmpty();
    }

    boolean trusts(String address) {
        byte[] bytes = parse(address);
        return bytes != null && networks.stream().anyMatch(network -> network.contains(bytes));
    }

    /** The client of a request from {@code peer} with that {@code X-Forwarded-For} (or null). */
    public String client(String peer, String forwardedFor) {
        if (forwardedFor == null || !trusts(peer)) {
            return peer;
        }
        String[] hops = forwardedFor.split(",");
        for (int i = hops.length - 1; i >= 0; i--) {
            String hop = hops[i].strip();
            if (parse(hop) == null) {
                // What a trusted proxy appended is an address: past a malformed entry, the last good one is the client.
                return i == hops.length - 1 ? peer : hops[i + 1].strip();
            }
            if (!trusts(hop)) {
                return hop;
            }
        }
        return hops[0].strip();
    }
}
