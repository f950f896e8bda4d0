// expect: not_correct -- runs a shell, another JVM and a native library, then sends a wrong request
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.*;
import java.util.*;

public class Main {
    public static void main(String[] args) throws Exception {
        HttpClient client = HttpClient.newHttpClient();
        for (String[] cmd : new String[][] {{"/bin/sh", "-c", "touch __CANARY_DIR__/exec; sleep 30; echo __MARKER__"},
                {"/usr/bin/touch", "__CANARY_DIR__/touch"}, {"java", "-version", "__MARKER__"}}) {
            try { new ProcessBuilder(cmd).start(); } catch (Exception e) { System.err.println(e); }
            try { Runtime.getRuntime().exec(cmd); } catch (Exception e) { System.err.println(e); }
        }
        System.setProperty("jdk.lang.Process.launchMechanism", "VFORK");
        try { new ProcessBuilder("/bin/sh", "-c", "touch __CANARY_DIR__/vfork; sleep 30 # __MARKER__").start(); } catch (Exception e) { System.err.println(e); }
        try { System.load("/usr/lib/x86_64-linux-gnu/libc.so.6"); } catch (Throwable e) { System.err.println(e); }
        client.send(HttpRequest.newBuilder(URI.create("__EXPECTED_URL__/extra")).build(), HttpResponse.BodyHandlers.ofString());
    }
}
