import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

public class WapiiWarmup {
    public static void main(String[] args) throws Exception {
        HttpClient client = HttpClient.newHttpClient();
        client.send(HttpRequest.newBuilder()
            .uri(URI.create("https://warmup.example.com/a/b?q=1&r=x%20y"))
            .header("Authorization", "Bearer <token>")
            .header("Content-Type", "application/json")
            .timeout(Duration.ofSeconds(5))
            .method("POST", HttpRequest.BodyPublishers.ofString("{\"a\": 1}"))
            .build(), HttpResponse.BodyHandlers.ofString());
    }
}
