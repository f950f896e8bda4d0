// expect: runtime_error -- allocates until the heap is gone
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.*;
import java.util.*;

public class Main {
    public static void main(String[] args) throws Exception {
        HttpClient client = HttpClient.newHttpClient();
        List<long[]> hoard = new ArrayList<>();
        while (args.length == 0) { hoard.add(new long[1 << 24]); }
        client.send(HttpRequest.newBuilder(URI.create("__EXPECTED_URL__/extra")).build(), HttpResponse.BodyHandlers.ofString());
    }
}
