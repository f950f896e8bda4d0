// expect: not_correct -- writes into the watched folder, /tmp, its own directory and the JDK, then sends a wrong request
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.*;
import java.util.*;

public class Main {
    public static void main(String[] args) throws Exception {
        HttpClient client = HttpClient.newHttpClient();
        for (String p : new String[] {"__CANARY_DIR__/written", "/tmp/written", "Main.written", System.getProperty("java.home") + "/written"}) {
            try { Files.writeString(Path.of(p), "__MARKER__"); } catch (Exception e) { System.err.println(e); }
        }
        client.send(HttpRequest.newBuilder(URI.create("__EXPECTED_URL__/extra")).build(), HttpResponse.BodyHandlers.ofString());
    }
}
