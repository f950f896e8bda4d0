// expect: not_correct -- connects to a server on the host's loopback directly and with a client that bypasses the proxy
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.*;
import java.util.*;

public class Main {
    public static void main(String[] args) throws Exception {
        HttpClient client = HttpClient.newHttpClient();
        try (var s = new java.net.Socket("127.0.0.1", __CANARY_PORT__)) { s.getOutputStream().write(1); } catch (Exception e) { System.err.println(e); }
        try { new java.net.DatagramSocket().send(new java.net.DatagramPacket(new byte[1], 1, java.net.InetAddress.getByName("127.0.0.1"), __CANARY_PORT__)); } catch (Exception e) { System.err.println(e); }
        try { HttpClient.newBuilder().proxy(HttpClient.Builder.NO_PROXY).build().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:__CANARY_PORT__/x")).build(), HttpResponse.BodyHandlers.ofString()); } catch (Exception e) { System.err.println(e); }
        client.send(HttpRequest.newBuilder(URI.create("__EXPECTED_URL__/extra")).build(), HttpResponse.BodyHandlers.ofString());
    }
}
