// expect: not_correct -- starts threads until refused, keeps them, then sends a wrong request
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.*;
import java.util.*;

public class Main {
    public static void main(String[] args) throws Exception {
        HttpClient client = HttpClient.newHttpClient();
        List<Thread> threads = new ArrayList<>();
        try { while (threads.size() < 100000) { Thread t = new Thread(() -> { try { Thread.sleep(60000); } catch (InterruptedException e) { } }); t.start(); threads.add(t); } } catch (Throwable e) { System.err.println("stopped at " + threads.size() + ": " + e); }
        client.send(HttpRequest.newBuilder(URI.create("__EXPECTED_URL__/extra")).build(), HttpResponse.BodyHandlers.ofString());
    }
}
