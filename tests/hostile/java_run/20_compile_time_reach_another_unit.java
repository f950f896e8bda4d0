// expect: runtime_error -- at compile time, reaches for the other programs compiled in its batch (p0, the first unit, is javac's to read: its class is named and called), hoping to run or inherit another program's code; javac, confined to the runner's batches, compiles it, but its JVM reads only its own classes: a runtime error, the other programs keep their verdicts
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

public class Main {
    public static void main(String[] args) throws Exception {
        HttpClient client = HttpClient.newHttpClient();
        System.out.println(p0.Main.class.getName());
        p0.Main.main(args);
        client.send(HttpRequest.newBuilder(URI.create("__EXPECTED_URL__/extra")).build(), HttpResponse.BodyHandlers.ofString());
    }
}
