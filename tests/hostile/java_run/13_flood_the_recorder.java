// expect: not_correct -- opens many connections to the recorder and sends it garbage, then a wrong request
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.*;
import java.util.*;

public class Main {
    public static void main(String[] args) throws Exception {
        HttpClient client = HttpClient.newHttpClient();
        int port = Integer.getInteger("https.proxyPort", 1);
        for (int i = 0; i < 40; i++) {
            try { var s = new java.net.Socket("127.0.0.1", port); s.getOutputStream().write(("GARBAGE " + i + " \r\n\r\n").getBytes()); } catch (Exception e) { System.err.println(e); }
        }
        client.send(HttpRequest.newBuilder(URI.create("__EXPECTED_URL__/extra")).build(), HttpResponse.BodyHandlers.ofString());
    }
}
