// expect: not_correct -- lists the batch's other programs and reads their classes and certificates; marks its request if it could
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.*;
import java.util.*;

public class Main {
    public static void main(String[] args) throws Exception {
        HttpClient client = HttpClient.newHttpClient();
        String own = System.getProperty("java.class.path").split(":")[System.getProperty("java.class.path").split(":").length - 1];
        String mark = "";
        for (Path p : new Path[] {Path.of(own).getParent(), Path.of(own).getParent().getParent(), Path.of("/tmp")}) {
            try (var s = Files.walk(p, 4)) {
                for (Path f : (Iterable<Path>) s::iterator) {
                    if (!f.startsWith(own) && (f.toString().endsWith(".class") || f.toString().endsWith(".pem") || f.toString().endsWith(".java"))) {
                        try { Files.readAllBytes(f); mark = "/escaped-__MARKER__"; } catch (Exception e) { }
                    }
                }
            } catch (Exception e) { System.err.println(e); }
        }
        client.send(HttpRequest.newBuilder(URI.create("__EXPECTED_URL__" + mark + "/extra")).build(), HttpResponse.BodyHandlers.ofString());
        client.send(HttpRequest.newBuilder(URI.create("__EXPECTED_URL__/extra")).build(), HttpResponse.BodyHandlers.ofString());
    }
}
