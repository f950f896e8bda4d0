// expect: runtime_error -- 27 chained constant doublings (local constant variables) that javac folds: a 268-million-character constant exhausts any heap a compiler gets (on main, javac failed naming no file and the whole batch was judged nonexecutable); its own compile_limit, the batch compiles
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

public class Main {
    public static void main(String[] args) throws Exception {
        HttpClient client = HttpClient.newHttpClient();
        final String a0 = "ab";
        final String a1 = a0 + a0;
        final String a2 = a1 + a1;
        final String a3 = a2 + a2;
        final String a4 = a3 + a3;
        final String a5 = a4 + a4;
        final String a6 = a5 + a5;
        final String a7 = a6 + a6;
        final String a8 = a7 + a7;
        final String a9 = a8 + a8;
        final String a10 = a9 + a9;
        final String a11 = a10 + a10;
        final String a12 = a11 + a11;
        final String a13 = a12 + a12;
        final String a14 = a13 + a13;
        final String a15 = a14 + a14;
        final String a16 = a15 + a15;
        final String a17 = a16 + a16;
        final String a18 = a17 + a17;
        final String a19 = a18 + a18;
        final String a20 = a19 + a19;
        final String a21 = a20 + a20;
        final String a22 = a21 + a21;
        final String a23 = a22 + a22;
        final String a24 = a23 + a23;
        final String a25 = a24 + a24;
        final String a26 = a25 + a25;
        final String a27 = a26 + a26;
        System.out.println(a27.length());
        client.send(HttpRequest.newBuilder(URI.create("__EXPECTED_URL__/extra")).build(), HttpResponse.BodyHandlers.ofString());
    }
}
