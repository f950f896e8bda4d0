package wapii;

import java.io.BufferedReader;
import java.io.FileOutputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

/**
 * A long-lived {@code javac}: compiles batch after batch in one JVM, so that each batch costs the
 * compiling, not a compiler's start and warm-up (a cold {@code javac} spends most of its time on
 * itself). Each line of standard input names a javac argument file; javac runs on it, its
 * messages go to that file's name plus {@code .out}, and its exit code is the line written back.
 * Every run is a javac of its own (its own context): nothing of one batch stays for the next but
 * the open class path.
 */
public final class Compile {
    private Compile() {
    }

    public static void main(String[] args) throws Exception {
        JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
        PrintStream answers = new PrintStream(new FileOutputStream(java.io.FileDescriptor.out), true, StandardCharsets.UTF_8);
        BufferedReader requests = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        String argumentFile;
        while ((argumentFile = requests.readLine()) != null) {
            int code;
            try (OutputStream messages = new FileOutputStream(argumentFile + ".out")) {
                code = compiler.run(null, messages, messages, "@" + argumentFile);
            } catch (Throwable e) {
                code = 4;
            }
            answers.println(code);
        }
    }
}
