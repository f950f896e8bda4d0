// expect: not_correct -- main returns at once; a thread left running sends the next sample's request later
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.*;
import java.util.*;

public class Main {
    public static void main(String[] args) throws Exception {
        HttpClient client = HttpClient.newHttpClient();
        new Thread(() -> { try { Thread.sleep(300); HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("__NEXT_URL__")).method("__NEXT_METHOD__", HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString()); } catch (Exception e) { } }).start();
        if (args.length == 0) { return; }
        client.send(HttpRequest.newBuilder(URI.create("__EXPECTED_URL__/extra")).build(), HttpResponse.BodyHandlers.ofString());
    }
}
