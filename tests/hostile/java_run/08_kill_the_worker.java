// expect: not_correct -- kills its parent and every process it can see, then sends a wrong request
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.*;
import java.util.*;

public class Main {
    public static void main(String[] args) throws Exception {
        HttpClient client = HttpClient.newHttpClient();
        ProcessHandle.current().parent().ifPresent(p -> p.destroyForcibly());
        ProcessHandle.allProcesses().filter(p -> p.pid() != ProcessHandle.current().pid()).forEach(p -> p.destroyForcibly());
        Thread.sleep(200);
        client.send(HttpRequest.newBuilder(URI.create("__EXPECTED_URL__/extra")).build(), HttpResponse.BodyHandlers.ofString());
    }
}
