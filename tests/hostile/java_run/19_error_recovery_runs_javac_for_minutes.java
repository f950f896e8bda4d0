// expect: runtime_error -- a conditional nested 18 deep in an overloaded call on an undefined name: javac's error recovery attributes it once per overload, exponentially (hours; on main every sample of the batch got "javac ran longer than 300 s"); cut at its share of time, its own compile_limit, the batch compiles
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

public class Main {
    public static void main(String[] args) throws Exception {
        HttpClient client = HttpClient.newHttpClient();
        String s = String.valueOf(undefined ? String.valueOf(undefined ? String.valueOf(undefined ? String.valueOf(undefined ? String.valueOf(undefined ? String.valueOf(undefined ? String.valueOf(undefined ? String.valueOf(undefined ? String.valueOf(undefined ? String.valueOf(undefined ? String.valueOf(undefined ? String.valueOf(undefined ? String.valueOf(undefined ? String.valueOf(undefined ? String.valueOf(undefined ? String.valueOf(undefined ? String.valueOf(undefined ? String.valueOf(undefined ? 1 : 2) : 2) : 2) : 2) : 2) : 2) : 2) : 2) : 2) : 2) : 2) : 2) : 2) : 2) : 2) : 2) : 2) : 2);
        client.send(HttpRequest.newBuilder(URI.create("__EXPECTED_URL__/extra")).build(), HttpResponse.BodyHandlers.ofString());
    }
}
