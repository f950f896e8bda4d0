// expect: not_correct -- reaches into the JDK's HttpClient internals and the system properties, then sends a wrong request
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.*;
import java.util.*;

public class Main {
    public static void main(String[] args) throws Exception {
        HttpClient client = HttpClient.newHttpClient();
        try { var f = Class.forName("jdk.internal.net.http.HttpClientImpl").getDeclaredField("proxySelector"); f.setAccessible(true); } catch (Throwable e) { System.err.println(e); }
        System.setProperty("https.proxyHost", "127.0.0.1");
        System.setProperty("https.proxyPort", "__CANARY_PORT__");
        try { HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("https://example.com/")).build(), HttpResponse.BodyHandlers.ofString()); } catch (Exception e) { System.err.println(e); }
        client.send(HttpRequest.newBuilder(URI.create("__EXPECTED_URL__/extra")).build(), HttpResponse.BodyHandlers.ofString());
    }
}
