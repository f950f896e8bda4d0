package wapii;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.security.Security;

/**
 * Starts a program with {@link PlainTls} as the JVM's first security provider, so that every TLS
 * connection the program's HTTP library opens carries its HTTP bytes unencrypted to wapii's
 * recorder (outside this JVM), which reads them as the library wrote them.
 *
 * <p>Usage: {@code java wapii.Launch <main class>}. Nothing here is trusted: the program may
 * remove the provider or open connections of its own; the recorder judges only what arrives.
 */
public final class Launch {
    private Launch() {
    }

    public static void main(String[] args) throws Throwable {
        Security.insertProviderAt(new PlainTls(), 1);
        Method main = Class.forName(args[0], true, ClassLoader.getSystemClassLoader()).getMethod("main", String[].class);
        try {
            main.invoke(null, (Object) new String[0]);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }
}
