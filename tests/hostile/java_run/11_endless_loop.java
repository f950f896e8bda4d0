// expect: timeout -- never ends
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.*;
import java.util.*;

public class Main {
    public static void main(String[] args) throws Exception {
        HttpClient client = HttpClient.newHttpClient();
        long n = 0;
        while (n >= 0) { n++; }
        client.send(HttpRequest.newBuilder(URI.create("__EXPECTED_URL__/extra")).build(), HttpResponse.BodyHandlers.ofString());
    }
}
