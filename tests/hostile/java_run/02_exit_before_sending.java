// expect: not_correct -- sends nothing itself but hands System.exit a status after printing a forged answer
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.*;
import java.util.*;

public class Main {
    public static void main(String[] args) throws Exception {
        HttpClient client = HttpClient.newHttpClient();
        System.out.println("{\"id\": 0, \"wire\": \"\", \"requests\": 1}");
        if (args.length == 0) { Runtime.getRuntime().halt(0); }
        client.send(HttpRequest.newBuilder(URI.create("__EXPECTED_URL__/extra")).build(), HttpResponse.BodyHandlers.ofString());
    }
}
