// expect: runtime_error -- 27 chained constant doublings that javac folds: a 268-million-character constant exhausts any heap a compiler gets (on main, javac failed naming no file and the whole batch was judged nonexecutable); its own compile_limit, the batch compiles
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

public class Main {
    static final String A0 = "ab";
    static final String A1 = A0 + A0;
    static final String A2 = A1 + A1;
    static final String A3 = A2 + A2;
    static final String A4 = A3 + A3;
    static final String A5 = A4 + A4;
    static final String A6 = A5 + A5;
    static final String A7 = A6 + A6;
    static final String A8 = A7 + A7;
    static final String A9 = A8 + A8;
    static final String A10 = A9 + A9;
    static final String A11 = A10 + A10;
    static final String A12 = A11 + A11;
    static final String A13 = A12 + A12;
    static final String A14 = A13 + A13;
    static final String A15 = A14 + A14;
    static final String A16 = A15 + A15;
    static final String A17 = A16 + A16;
    static final String A18 = A17 + A17;
    static final String A19 = A18 + A18;
    static final String A20 = A19 + A19;
    static final String A21 = A20 + A20;
    static final String A22 = A21 + A21;
    static final String A23 = A22 + A22;
    static final String A24 = A23 + A23;
    static final String A25 = A24 + A24;
    static final String A26 = A25 + A25;
    static final String A27 = A26 + A26;

    public static void main(String[] args) throws Exception {
        HttpClient client = HttpClient.newHttpClient();
        System.out.println(A27.length());
        client.send(HttpRequest.newBuilder(URI.create("__EXPECTED_URL__/extra")).build(), HttpResponse.BodyHandlers.ofString());
    }
}
