package wapii;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.math.BigInteger;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketAddress;
import java.net.SocketException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.KeyStore;
import java.security.Principal;
import java.security.Provider;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.SignatureException;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.util.Collection;
import java.util.Collections;
import java.util.Date;
import java.util.Enumeration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import javax.net.ssl.HandshakeCompletedEvent;
import javax.net.ssl.HandshakeCompletedListener;
import javax.net.ssl.KeyManager;
import javax.net.ssl.ManagerFactoryParameters;
import javax.net.ssl.SSLContextSpi;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLEngineResult;
import javax.net.ssl.SSLEngineResult.HandshakeStatus;
import javax.net.ssl.SSLEngineResult.Status;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLServerSocketFactory;
import javax.net.ssl.SSLSession;
import javax.net.ssl.SSLSessionContext;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.SSLSocketFactory;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactorySpi;
import javax.net.ssl.X509TrustManager;
import javax.security.auth.x500.X500Principal;

/**
 * A security provider whose TLS is the identity: its {@code SSLContext} ("Default", "TLS",
 * "TLSv1.2", "TLSv1.3", ...) hands out sockets and engines that complete their handshake at once
 * and pass application bytes through unchanged, and its {@code TrustManagerFactory} ("PKIX",
 * "SunX509") trusts every peer. An HTTP library's {@code https://} request thus reaches wapii's
 * recorder (the JVM's proxy, outside its process) as the plain HTTP/1.1 the library wrote, inside
 * the {@code CONNECT} tunnel, without a key exchange or a certificate check in a cold JVM.
 *
 * <p>What the libraries ask of a TLS session is answered as a TLS 1.3 session would: a cipher
 * suite and protocol among those enabled, no ALPN protocol (HTTP/1.1), and a peer certificate for
 * the host connected to (its subject alternative name is that host), so that host name checks
 * pass. A certificate's signature cannot be verified: pinning and custom chain checks fail.
 */
public final class PlainTls extends Provider {
    private static final long serialVersionUID = 1L;
    static final String NAME = "WapiiPlainTls";
    static final String[] PROTOCOLS = {"TLSv1.3", "TLSv1.2"};
    static final String[] SUITES = {"TLS_AES_128_GCM_SHA256", "TLS_AES_256_GCM_SHA384", "TLS_CHACHA20_POLY1305_SHA256",
        "TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256", "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256",
        "TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384", "TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384",
        "TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256", "TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256"};
    static final int PACKET_SIZE = 16709;
    static final int APPLICATION_SIZE = 16384;

    public PlainTls() {
        super(NAME, "1.0", "TLS that passes HTTP bytes through unencrypted to wapii's recorder");
        for (String name : new String[] {"Default", "TLS", "TLSv1", "TLSv1.1", "TLSv1.2", "TLSv1.3", "SSL", "SSLv3"}) {
            putService(new Made(this, "SSLContext", name));
        }
        for (String name : new String[] {"PKIX", "SunX509", "X509", "X.509", "SunPKIX"}) {
            putService(new Made(this, "TrustManagerFactory", name));
        }
    }

    /** One service of this provider, made without reflection. */
    private static final class Made extends Service {
        Made(Provider provider, String type, String algorithm) {
            super(provider, type, algorithm, PlainTls.class.getName() + "$" + type, null, null);
        }

        @Override
        public Object newInstance(Object parameter) {
            return "SSLContext".equals(getType()) ? new Context() : new TrustFactory();
        }
    }

    static SSLParameters parameters() {
        return new SSLParameters(SUITES.clone(), PROTOCOLS.clone());
    }

    /** The SSLContext: every socket and engine it makes is a pass-through. */
    static final class Context extends SSLContextSpi {
        private final Sessions sessions = new Sessions();

        @Override
        protected void engineInit(KeyManager[] km, TrustManager[] tm, SecureRandom random) {
        }

        @Override
        protected SSLSocketFactory engineGetSocketFactory() {
            return new Factory();
        }

        @Override
        protected SSLServerSocketFactory engineGetServerSocketFactory() {
            return new ServerFactory();
        }

        @Override
        protected SSLEngine engineCreateSSLEngine() {
            return new Engine(null, -1);
        }

        @Override
        protected SSLEngine engineCreateSSLEngine(String host, int port) {
            return new Engine(host, port);
        }

        @Override
        protected SSLSessionContext engineGetServerSessionContext() {
            return sessions;
        }

        @Override
        protected SSLSessionContext engineGetClientSessionContext() {
            return sessions;
        }

        @Override
        protected SSLParameters engineGetDefaultSSLParameters() {
            return parameters();
        }

        @Override
        protected SSLParameters engineGetSupportedSSLParameters() {
            return parameters();
        }
    }

    /** No session is ever cached: each connection's session is new. */
    static final class Sessions implements SSLSessionContext {
        private int timeout = 86400;
        private int size;

        @Override
        public SSLSession getSession(byte[] id) {
            return null;
        }

        @Override
        public Enumeration<byte[]> getIds() {
            return Collections.emptyEnumeration();
        }

        @Override
        public void setSessionTimeout(int seconds) {
            timeout = seconds;
        }

        @Override
        public int getSessionTimeout() {
            return timeout;
        }

        @Override
        public void setSessionCacheSize(int size) {
            this.size = size;
        }

        @Override
        public int getSessionCacheSize() {
            return size;
        }
    }

    /** What a connection's TLS settings are: enabled suites and protocols, ALPN, client mode. */
    static final class Settings {
        String[] suites = SUITES.clone();
        String[] protocols = PROTOCOLS.clone();
        SSLParameters parameters = parameters();
        boolean clientMode = true;
        boolean needClientAuth;
        boolean wantClientAuth;
        boolean sessionCreation = true;

        SSLParameters get() {
            SSLParameters copy = new SSLParameters(suites.clone(), protocols.clone());
            copy.setApplicationProtocols(parameters.getApplicationProtocols());
            copy.setEndpointIdentificationAlgorithm(parameters.getEndpointIdentificationAlgorithm());
            copy.setServerNames(parameters.getServerNames());
            copy.setNeedClientAuth(needClientAuth);
            if (!needClientAuth) {
                copy.setWantClientAuth(wantClientAuth);
            }
            return copy;
        }

        void set(SSLParameters given) {
            if (given.getCipherSuites() != null) {
                suites = given.getCipherSuites().clone();
            }
            if (given.getProtocols() != null) {
                protocols = given.getProtocols().clone();
            }
            needClientAuth = given.getNeedClientAuth();
            wantClientAuth = given.getWantClientAuth();
            parameters = given;
        }

        Session session(String host, int port) {
            String suite = suites.length > 0 ? suites[0] : SUITES[0];
            String protocol = protocols.length > 0 ? protocols[0] : PROTOCOLS[0];
            return new Session(host, port, suite, protocol);
        }
    }

    /** A finished session with the host connected to. */
    static final class Session implements SSLSession {
        private final String host;
        private final int port;
        private final String suite;
        private final String protocol;
        private final long created = System.currentTimeMillis();
        private final Map<String, Object> values = new HashMap<>();
        private boolean valid = true;

        Session(String host, int port, String suite, String protocol) {
            this.host = host;
            this.port = port;
            this.suite = suite;
            this.protocol = protocol;
        }

        @Override
        public byte[] getId() {
            return new byte[0];
        }

        @Override
        public SSLSessionContext getSessionContext() {
            return null;
        }

        @Override
        public long getCreationTime() {
            return created;
        }

        @Override
        public long getLastAccessedTime() {
            return created;
        }

        @Override
        public void invalidate() {
            valid = false;
        }

        @Override
        public boolean isValid() {
            return valid;
        }

        @Override
        public synchronized void putValue(String name, Object value) {
            values.put(name, value);
        }

        @Override
        public synchronized Object getValue(String name) {
            return values.get(name);
        }

        @Override
        public synchronized void removeValue(String name) {
            values.remove(name);
        }

        @Override
        public synchronized String[] getValueNames() {
            return values.keySet().toArray(new String[0]);
        }

        @Override
        public Certificate[] getPeerCertificates() {
            return new Certificate[] {new HostCertificate(host == null ? "localhost" : host)};
        }

        @Override
        public Certificate[] getLocalCertificates() {
            return null;
        }

        @Override
        public Principal getPeerPrincipal() {
            return new HostCertificate(host == null ? "localhost" : host).getSubjectX500Principal();
        }

        @Override
        public Principal getLocalPrincipal() {
            return null;
        }

        @Override
        public String getCipherSuite() {
            return suite;
        }

        @Override
        public String getProtocol() {
            return protocol;
        }

        @Override
        public String getPeerHost() {
            return host;
        }

        @Override
        public int getPeerPort() {
            return port;
        }

        @Override
        public int getPacketBufferSize() {
            return PACKET_SIZE;
        }

        @Override
        public int getApplicationBufferSize() {
            return APPLICATION_SIZE;
        }
    }

    /** A certificate naming one host (as its subject alternative name and common name), unsigned. */
    static final class HostCertificate extends X509Certificate {
        private static final long serialVersionUID = 1L;
        private final String host;

        HostCertificate(String host) {
            this.host = host;
        }

        private boolean literalAddress() {
            if (host.indexOf(':') >= 0) {
                return true;
            }
            for (int i = 0; i < host.length(); i++) {
                char c = host.charAt(i);
                if (c != '.' && (c < '0' || c > '9')) {
                    return false;
                }
            }
            return true;
        }

        @Override
        public Collection<List<?>> getSubjectAlternativeNames() {
            return List.of(List.of(literalAddress() ? 7 : 2, host));
        }

        @Override
        public X500Principal getSubjectX500Principal() {
            return new X500Principal("CN=" + host.replace("\\", "\\\\").replace(",", "\\,").replace("+", "\\+")
                .replace("=", "\\=").replace("\"", "\\\"").replace("<", "\\<").replace(">", "\\>").replace(";", "\\;"));
        }

        @Override
        public X500Principal getIssuerX500Principal() {
            return new X500Principal("CN=wapii");
        }

        @Override
        public void checkValidity() {
        }

        @Override
        public void checkValidity(Date date) {
        }

        @Override
        public int getVersion() {
            return 3;
        }

        @Override
        public BigInteger getSerialNumber() {
            return BigInteger.ONE;
        }

        @Override
        public Principal getIssuerDN() {
            return getIssuerX500Principal();
        }

        @Override
        public Principal getSubjectDN() {
            return getSubjectX500Principal();
        }

        @Override
        public Date getNotBefore() {
            return new Date(0L);
        }

        @Override
        public Date getNotAfter() {
            return new Date(Long.MAX_VALUE / 2);
        }

        @Override
        public byte[] getTBSCertificate() {
            return getEncoded();
        }

        @Override
        public byte[] getSignature() {
            return new byte[0];
        }

        @Override
        public String getSigAlgName() {
            return "NONE";
        }

        @Override
        public String getSigAlgOID() {
            return "0.0";
        }

        @Override
        public byte[] getSigAlgParams() {
            return null;
        }

        @Override
        public boolean[] getIssuerUniqueID() {
            return null;
        }

        @Override
        public boolean[] getSubjectUniqueID() {
            return null;
        }

        @Override
        public boolean[] getKeyUsage() {
            return null;
        }

        @Override
        public int getBasicConstraints() {
            return -1;
        }

        @Override
        public byte[] getEncoded() {
            return ("wapii:" + host).getBytes(StandardCharsets.UTF_8);
        }

        @Override
        public void verify(PublicKey key) throws SignatureException {
            throw new SignatureException("wapii's pass-through TLS: the certificate is not signed");
        }

        @Override
        public void verify(PublicKey key, String sigProvider) throws SignatureException {
            verify(key);
        }

        @Override
        public String toString() {
            return "wapii pass-through TLS certificate for " + host;
        }

        @Override
        public PublicKey getPublicKey() {
            return null;
        }

        @Override
        public boolean hasUnsupportedCriticalExtension() {
            return false;
        }

        @Override
        public Set<String> getCriticalExtensionOIDs() {
            return null;
        }

        @Override
        public Set<String> getNonCriticalExtensionOIDs() {
            return null;
        }

        @Override
        public byte[] getExtensionValue(String oid) {
            return null;
        }
    }

    /** Trusts every certificate (there is no key exchange to protect). */
    static final class TrustAll implements X509TrustManager {
        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType) {
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType) {
        }

        @Override
        public X509Certificate[] getAcceptedIssuers() {
            return new X509Certificate[0];
        }
    }

    static final class TrustFactory extends TrustManagerFactorySpi {
        @Override
        protected void engineInit(KeyStore keyStore) {
        }

        @Override
        protected void engineInit(ManagerFactoryParameters parameters) {
        }

        @Override
        protected TrustManager[] engineGetTrustManagers() {
            return new TrustManager[] {new TrustAll()};
        }
    }

    /** Client sockets: layered on a connected socket (a proxy's tunnel) or connected here. */
    static final class Factory extends SSLSocketFactory {
        @Override
        public String[] getDefaultCipherSuites() {
            return SUITES.clone();
        }

        @Override
        public String[] getSupportedCipherSuites() {
            return SUITES.clone();
        }

        @Override
        public Socket createSocket() {
            return new PlainSocket(new Socket(), null, -1, true);
        }

        @Override
        public Socket createSocket(Socket socket, String host, int port, boolean autoClose) {
            return new PlainSocket(socket, host, port, autoClose);
        }

        @Override
        public Socket createSocket(String host, int port) throws IOException {
            return new PlainSocket(new Socket(host, port), host, port, true);
        }

        @Override
        public Socket createSocket(String host, int port, InetAddress local, int localPort) throws IOException {
            return new PlainSocket(new Socket(host, port, local, localPort), host, port, true);
        }

        @Override
        public Socket createSocket(InetAddress address, int port) throws IOException {
            return new PlainSocket(new Socket(address, port), address.getHostName(), port, true);
        }

        @Override
        public Socket createSocket(InetAddress address, int port, InetAddress local, int localPort) throws IOException {
            return new PlainSocket(new Socket(address, port, local, localPort), address.getHostName(), port, true);
        }
    }

    /** No TLS server runs in a sandboxed program. */
    static final class ServerFactory extends SSLServerSocketFactory {
        @Override
        public String[] getDefaultCipherSuites() {
            return SUITES.clone();
        }

        @Override
        public String[] getSupportedCipherSuites() {
            return SUITES.clone();
        }

        @Override
        public java.net.ServerSocket createServerSocket(int port) throws IOException {
            throw new SocketException("no TLS server sockets in wapii's sandbox");
        }

        @Override
        public java.net.ServerSocket createServerSocket(int port, int backlog) throws IOException {
            throw new SocketException("no TLS server sockets in wapii's sandbox");
        }

        @Override
        public java.net.ServerSocket createServerSocket(int port, int backlog, InetAddress address) throws IOException {
            throw new SocketException("no TLS server sockets in wapii's sandbox");
        }
    }

    /** A client socket whose bytes are those of the socket beneath. */
    static final class PlainSocket extends SSLSocket {
        private final Socket inner;
        private final boolean autoClose;
        private final Settings settings = new Settings();
        private final List<HandshakeCompletedListener> listeners = new CopyOnWriteArrayList<>();
        private String host;
        private int port;
        private Session session;

        PlainSocket(Socket inner, String host, int port, boolean autoClose) {
            this.inner = inner;
            this.host = host;
            this.port = port;
            this.autoClose = autoClose;
        }

        private synchronized Session handshaken() {
            if (session == null) {
                String name = host != null ? host : inner.getInetAddress() != null ? inner.getInetAddress().getHostName() : null;
                session = settings.session(name, port >= 0 ? port : inner.getPort());
                HandshakeCompletedEvent event = new HandshakeCompletedEvent(this, session);
                for (HandshakeCompletedListener listener : listeners) {
                    listener.handshakeCompleted(event);
                }
            }
            return session;
        }

        @Override
        public void startHandshake() {
            handshaken();
        }

        @Override
        public SSLSession getSession() {
            return handshaken();
        }

        @Override
        public synchronized SSLSession getHandshakeSession() {
            return null;
        }

        @Override
        public String getApplicationProtocol() {
            return session == null ? null : "";
        }

        @Override
        public String getHandshakeApplicationProtocol() {
            return null;
        }

        @Override
        public SSLParameters getSSLParameters() {
            return settings.get();
        }

        @Override
        public void setSSLParameters(SSLParameters parameters) {
            settings.set(parameters);
        }

        @Override
        public String[] getSupportedCipherSuites() {
            return SUITES.clone();
        }

        @Override
        public String[] getEnabledCipherSuites() {
            return settings.suites.clone();
        }

        @Override
        public void setEnabledCipherSuites(String[] suites) {
            settings.suites = suites.clone();
        }

        @Override
        public String[] getSupportedProtocols() {
            return PROTOCOLS.clone();
        }

        @Override
        public String[] getEnabledProtocols() {
            return settings.protocols.clone();
        }

        @Override
        public void setEnabledProtocols(String[] protocols) {
            settings.protocols = protocols.clone();
        }

        @Override
        public void addHandshakeCompletedListener(HandshakeCompletedListener listener) {
            listeners.add(listener);
        }

        @Override
        public void removeHandshakeCompletedListener(HandshakeCompletedListener listener) {
            listeners.remove(listener);
        }

        @Override
        public void setUseClientMode(boolean mode) {
            settings.clientMode = mode;
        }

        @Override
        public boolean getUseClientMode() {
            return settings.clientMode;
        }

        @Override
        public void setNeedClientAuth(boolean need) {
            settings.needClientAuth = need;
        }

        @Override
        public boolean getNeedClientAuth() {
            return settings.needClientAuth;
        }

        @Override
        public void setWantClientAuth(boolean want) {
            settings.wantClientAuth = want;
        }

        @Override
        public boolean getWantClientAuth() {
            return settings.wantClientAuth;
        }

        @Override
        public void setEnableSessionCreation(boolean flag) {
            settings.sessionCreation = flag;
        }

        @Override
        public boolean getEnableSessionCreation() {
            return settings.sessionCreation;
        }

        // -- the socket beneath ---------------------------------------------------------------
        @Override
        public void connect(SocketAddress endpoint) throws IOException {
            connect(endpoint, 0);
        }

        @Override
        public void connect(SocketAddress endpoint, int timeout) throws IOException {
            inner.connect(endpoint, timeout);
            if (host == null && endpoint instanceof java.net.InetSocketAddress) {
                host = ((java.net.InetSocketAddress) endpoint).getHostString();
                port = ((java.net.InetSocketAddress) endpoint).getPort();
            }
        }

        @Override
        public void bind(SocketAddress local) throws IOException {
            inner.bind(local);
        }

        @Override
        public InputStream getInputStream() throws IOException {
            handshaken();
            return inner.getInputStream();
        }

        @Override
        public OutputStream getOutputStream() throws IOException {
            handshaken();
            return inner.getOutputStream();
        }

        @Override
        public synchronized void close() throws IOException {
            if (autoClose) {
                inner.close();
            }
        }

        @Override
        public boolean isClosed() {
            return inner.isClosed();
        }

        @Override
        public boolean isConnected() {
            return inner.isConnected();
        }

        @Override
        public boolean isBound() {
            return inner.isBound();
        }

        @Override
        public InetAddress getInetAddress() {
            return inner.getInetAddress();
        }

        @Override
        public InetAddress getLocalAddress() {
            return inner.getLocalAddress();
        }

        @Override
        public int getPort() {
            return inner.getPort();
        }

        @Override
        public int getLocalPort() {
            return inner.getLocalPort();
        }

        @Override
        public SocketAddress getRemoteSocketAddress() {
            return inner.getRemoteSocketAddress();
        }

        @Override
        public SocketAddress getLocalSocketAddress() {
            return inner.getLocalSocketAddress();
        }

        @Override
        public void setSoTimeout(int timeout) throws SocketException {
            inner.setSoTimeout(timeout);
        }

        @Override
        public int getSoTimeout() throws SocketException {
            return inner.getSoTimeout();
        }

        @Override
        public void setTcpNoDelay(boolean on) throws SocketException {
            inner.setTcpNoDelay(on);
        }

        @Override
        public boolean getTcpNoDelay() throws SocketException {
            return inner.getTcpNoDelay();
        }

        @Override
        public void setKeepAlive(boolean on) throws SocketException {
            inner.setKeepAlive(on);
        }

        @Override
        public boolean getKeepAlive() throws SocketException {
            return inner.getKeepAlive();
        }

        @Override
        public void setSoLinger(boolean on, int linger) throws SocketException {
            inner.setSoLinger(on, linger);
        }

        @Override
        public int getSoLinger() throws SocketException {
            return inner.getSoLinger();
        }

        @Override
        public void setSendBufferSize(int size) throws SocketException {
            inner.setSendBufferSize(size);
        }

        @Override
        public int getSendBufferSize() throws SocketException {
            return inner.getSendBufferSize();
        }

        @Override
        public void setReceiveBufferSize(int size) throws SocketException {
            inner.setReceiveBufferSize(size);
        }

        @Override
        public int getReceiveBufferSize() throws SocketException {
            return inner.getReceiveBufferSize();
        }

        @Override
        public void shutdownInput() throws IOException {
            inner.shutdownInput();
        }

        @Override
        public void shutdownOutput() throws IOException {
            inner.shutdownOutput();
        }

        @Override
        public boolean isInputShutdown() {
            return inner.isInputShutdown();
        }

        @Override
        public boolean isOutputShutdown() {
            return inner.isOutputShutdown();
        }

        @Override
        public String toString() {
            return "wapii pass-through TLS socket over " + inner;
        }
    }

    /**
     * An engine whose records are the application bytes themselves. Its handshake takes two
     * empty wraps (status NEED_WRAP, then FINISHED), as a client's first flight would, so that a
     * library waiting for the handshake's end (java.net.http's ALPN) sees it end.
     */
    static final class Engine extends SSLEngine {
        private static final int FRESH = 0;
        private static final int SHAKING = 1;
        private static final int DONE = 2;
        private final Settings settings = new Settings();
        private int stage = FRESH;
        private boolean inboundDone;
        private boolean outboundDone;
        private Session session;

        Engine(String host, int port) {
            super(host, port);
        }

        private synchronized SSLEngineResult result(Status status, HandshakeStatus handshake, int consumed, int produced) {
            return new SSLEngineResult(status, handshake, consumed, produced);
        }

        private static int copy(ByteBuffer[] sources, int offset, int length, ByteBuffer target) {
            int moved = 0;
            for (int i = offset; i < offset + length && target.hasRemaining(); i++) {
                moved += move(sources[i], target);
            }
            return moved;
        }

        /** Moves as many bytes from {@code source} to {@code target} as fit; how many. */
        private static int move(ByteBuffer source, ByteBuffer target) {
            int n = Math.min(source.remaining(), target.remaining());
            if (n > 0) {
                ByteBuffer slice = source.duplicate();
                slice.limit(slice.position() + n);
                target.put(slice);
                source.position(source.position() + n);
            }
            return n;
        }

        private static int remaining(ByteBuffer[] buffers, int offset, int length) {
            int total = 0;
            for (int i = offset; i < offset + length; i++) {
                total += buffers[i].remaining();
            }
            return total;
        }

        @Override
        public synchronized SSLEngineResult wrap(ByteBuffer[] sources, int offset, int length, ByteBuffer target) {
            if (outboundDone) {
                return result(Status.CLOSED, HandshakeStatus.NOT_HANDSHAKING, 0, 0);
            }
            if (stage == FRESH) {
                stage = SHAKING;
                return result(Status.OK, HandshakeStatus.NEED_WRAP, 0, 0);
            }
            HandshakeStatus handshake = HandshakeStatus.NOT_HANDSHAKING;
            if (stage == SHAKING) {
                stage = DONE;
                handshake = HandshakeStatus.FINISHED;
            }
            if (remaining(sources, offset, length) > 0 && !target.hasRemaining()) {
                return result(Status.BUFFER_OVERFLOW, handshake, 0, 0);
            }
            int moved = copy(sources, offset, length, target);
            return result(Status.OK, handshake, moved, moved);
        }

        @Override
        public synchronized SSLEngineResult unwrap(ByteBuffer source, ByteBuffer[] targets, int offset, int length) {
            if (!source.hasRemaining() && inboundDone) {
                return result(Status.CLOSED, HandshakeStatus.NOT_HANDSHAKING, 0, 0);
            }
            HandshakeStatus handshake = stage == DONE ? HandshakeStatus.NOT_HANDSHAKING : HandshakeStatus.NEED_WRAP;
            if (source.hasRemaining() && remaining(targets, offset, length) == 0) {
                return result(Status.BUFFER_OVERFLOW, handshake, 0, 0);
            }
            int moved = 0;
            for (int i = offset; i < offset + length && source.hasRemaining(); i++) {
                moved += move(source, targets[i]);
            }
            return result(Status.OK, handshake, moved, moved);
        }

        @Override
        public Runnable getDelegatedTask() {
            return null;
        }

        @Override
        public synchronized void closeInbound() {
            inboundDone = true;
        }

        @Override
        public synchronized boolean isInboundDone() {
            return inboundDone;
        }

        @Override
        public synchronized void closeOutbound() {
            outboundDone = true;
        }

        @Override
        public synchronized boolean isOutboundDone() {
            return outboundDone;
        }

        @Override
        public String[] getSupportedCipherSuites() {
            return SUITES.clone();
        }

        @Override
        public String[] getEnabledCipherSuites() {
            return settings.suites.clone();
        }

        @Override
        public void setEnabledCipherSuites(String[] suites) {
            settings.suites = suites.clone();
        }

        @Override
        public String[] getSupportedProtocols() {
            return PROTOCOLS.clone();
        }

        @Override
        public String[] getEnabledProtocols() {
            return settings.protocols.clone();
        }

        @Override
        public void setEnabledProtocols(String[] protocols) {
            settings.protocols = protocols.clone();
        }

        @Override
        public SSLParameters getSSLParameters() {
            return settings.get();
        }

        @Override
        public void setSSLParameters(SSLParameters parameters) {
            settings.set(parameters);
        }

        @Override
        public synchronized SSLSession getSession() {
            if (stage != DONE) {
                return new Session(null, -1, "SSL_NULL_WITH_NULL_NULL", "NONE");
            }
            if (session == null) {
                session = settings.session(getPeerHost(), getPeerPort());
            }
            return session;
        }

        @Override
        public synchronized SSLSession getHandshakeSession() {
            return null;
        }

        @Override
        public synchronized String getApplicationProtocol() {
            return stage == DONE ? "" : null;
        }

        @Override
        public String getHandshakeApplicationProtocol() {
            return null;
        }

        @Override
        public synchronized void beginHandshake() {
            if (stage == DONE) {
                return;
            }
        }

        @Override
        public synchronized HandshakeStatus getHandshakeStatus() {
            return stage == DONE ? HandshakeStatus.NOT_HANDSHAKING : HandshakeStatus.NEED_WRAP;
        }

        @Override
        public void setUseClientMode(boolean mode) {
            settings.clientMode = mode;
        }

        @Override
        public boolean getUseClientMode() {
            return settings.clientMode;
        }

        @Override
        public void setNeedClientAuth(boolean need) {
            settings.needClientAuth = need;
        }

        @Override
        public boolean getNeedClientAuth() {
            return settings.needClientAuth;
        }

        @Override
        public void setWantClientAuth(boolean want) {
            settings.wantClientAuth = want;
        }

        @Override
        public boolean getWantClientAuth() {
            return settings.wantClientAuth;
        }

        @Override
        public void setEnableSessionCreation(boolean flag) {
            settings.sessionCreation = flag;
        }

        @Override
        public boolean getEnableSessionCreation() {
            return settings.sessionCreation;
        }
    }
}
