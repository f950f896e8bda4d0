// expect: runtime_error -- writes until the disk is full
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.*;
import java.util.*;

public class Main {
    public static void main(String[] args) throws Exception {
        HttpClient client = HttpClient.newHttpClient();
        byte[] block = new byte[1 << 20];
        try (var out = new java.io.FileOutputStream("/tmp/fill")) { while (args.length == 0) { out.write(block); } }
        client.send(HttpRequest.newBuilder(URI.create("__EXPECTED_URL__/extra")).build(), HttpResponse.BodyHandlers.ofString());
    }
}
