// expect: runtime_error|timeout -- removes wapii's pass-through TLS provider and sends the expected URL over the JDK's own TLS (and again with a context named for SunJSSE): the recorder holds no key and reads nothing (on a loaded machine the three refused handshakes may outlast the time limit: either way nothing is recorded)
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.security.Provider;
import java.security.Security;
import javax.net.ssl.SSLContext;

public class Main {
    public static void main(String[] args) throws Exception {
        for (Provider provider : Security.getProviders()) {
            if (provider.getName().startsWith("Wapii")) {
                Security.removeProvider(provider.getName());
            }
        }
        SSLContext jdk = SSLContext.getInstance("TLS", "SunJSSE");
        jdk.init(null, null, null);
        try {
            HttpClient.newBuilder().sslContext(jdk).build()
                .send(HttpRequest.newBuilder(URI.create("__EXPECTED_URL__")).build(), HttpResponse.BodyHandlers.ofString());
        } catch (Exception e) {
            System.err.println(e);
        }
        HttpClient client = HttpClient.newHttpClient();
        try {
            client.send(HttpRequest.newBuilder(URI.create("__EXPECTED_URL__")).build(), HttpResponse.BodyHandlers.ofString());
        } catch (Exception e) {
            System.err.println(e);
        }
        client.send(HttpRequest.newBuilder(URI.create("__EXPECTED_URL__/extra")).build(), HttpResponse.BodyHandlers.ofString());
    }
}
