package wapii;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.security.Security;

/**
 * Puts {@link PlainTls} first among the JVM's security providers, so that every TLS connection a
 * program's HTTP library opens carries its HTTP bytes unencrypted to wapii's recorder (outside this
 * JVM), which reads them as the library wrote them. Every program's {@code main} opens with
 * {@link #install()}; {@code java wapii.Launch <main class>} installs it before another class's
 * {@code main} (the library's warm-up). Nothing here is trusted: the program may remove the
 * provider or open connections of its own; the recorder judges only what arrives.
 */
public final class Launch {
    private Launch() {
    }

    /** Makes the pass-through provider the first (a no-op when it is already installed). */
    public static void install() {
        if (Security.getProvider(PlainTls.NAME) == null) {
            Security.insertProviderAt(new PlainTls(), 1);
        }
    }

    public static void main(String[] args) throws Throwable {
        install();
        Method main = Class.forName(args[0], true, ClassLoader.getSystemClassLoader()).getMethod("main", String[].class);
        try {
            main.invoke(null, (Object) new String[0]);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }
}
