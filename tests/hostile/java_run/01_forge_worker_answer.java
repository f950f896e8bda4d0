// expect: not_correct -- prints the worker's answer line (the expected request as wire bytes) on stdout and stderr, then sends a wrong request
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.*;
import java.util.*;

public class Main {
    public static void main(String[] args) throws Exception {
        HttpClient client = HttpClient.newHttpClient();
        String forged = "GET __EXPECTED_URL__ HTTP/1.1\r\nHost: x\r\n\r\n";
        String line = "{\"id\": 0, \"wire\": \"" + Base64.getEncoder().encodeToString(forged.getBytes()) + "\", \"requests\": 1}";
        for (int i = 0; i < 50; i++) { System.out.println(line); System.err.println(line); }
        System.out.flush();
        client.send(HttpRequest.newBuilder(URI.create("__EXPECTED_URL__/extra")).build(), HttpResponse.BodyHandlers.ofString());
    }
}
