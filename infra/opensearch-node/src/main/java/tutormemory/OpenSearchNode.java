package tutormemory;

import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.opensearch.common.logging.LogConfigurator;
import org.opensearch.common.settings.Settings;
import org.opensearch.env.Environment;
import org.opensearch.http.HttpServerTransport;
import org.opensearch.node.InternalSettingsPreparer;
import org.opensearch.node.Node;
import org.opensearch.painless.PainlessPlugin;
import org.opensearch.plugins.ExtensiblePlugin;
import org.opensearch.plugins.Plugin;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.ServiceLoader;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Starts a real single-node OpenSearch 2.19.1 in this JVM, from jars on the classpath
 * (no distribution, no Docker). Development/test use only: binds to 127.0.0.1, no security.
 *
 * <p>Usage: {@code java -cp ... tutormemory.OpenSearchNode [--port N] [--base DIR]}.
 * Port: {@code --port}, else env {@code OPENSEARCH_PORT}, else 9250.
 * Base dir (home/data/logs live below it): {@code --base}, else env {@code OPENSEARCH_BASE},
 * else the Maven build directory this class was loaded from ({@code target/}).
 * Transport port range: env {@code OPENSEARCH_TRANSPORT_PORT}, default 9350-9399.
 *
 * <p>Prints {@code OPENSEARCH READY http://127.0.0.1:PORT} on stdout once HTTP is bound,
 * and closes the node cleanly on SIGTERM/SIGINT (JVM shutdown hook).
 */
public final class OpenSearchNode {

    static final int DEFAULT_HTTP_PORT = 9250;
    static final String DEFAULT_TRANSPORT_PORT = "9350-9399";
    static final String NODE_NAME = "tutor-memory-dev";

    /** Plugins loaded as classpath plugins, by class name (k-NN is not a compile-time dependency). */
    static final String[] PLUGIN_CLASSES = {
        "org.opensearch.transport.Netty4Plugin",
        "org.opensearch.painless.PainlessPlugin",
        "org.opensearch.analysis.common.CommonAnalysisPlugin",
        "org.opensearch.knn.plugin.KNNPlugin",
    };

    static final String LOG4J2_PROPERTIES = String.join("\n",
        "status = error",
        "appender.console.type = Console",
        "appender.console.name = console",
        "appender.console.layout.type = PatternLayout",
        "appender.console.layout.pattern = [%d{ISO8601}][%-5p][%-25c{1.}] [%node_name]%marker %m%n",
        "rootLogger.level = info",
        "rootLogger.appenderRef.console.ref = console",
        "");

    /** {@link Node} exposes the plugin-taking constructor only to subclasses. */
    static final class ClasspathPluginNode extends Node {
        ClasspathPluginNode(Environment env, List<Class<? extends Plugin>> plugins) {
            super(env, plugins, true);
        }
    }

    /**
     * Classpath plugins never get {@link ExtensiblePlugin#loadExtensions} called, so painless would
     * miss the allow-lists other plugins contribute through {@code META-INF/services} (k-NN's
     * {@code cosineSimilarity}/{@code l2Squared}/... script functions, analysis-common's analysis
     * predicate scripts). PainlessPlugin keeps those allow-lists in a static map, so loading them
     * once here, before the node builds its script engine, is what the plugin loader would do.
     */
    static void loadPainlessExtensions() {
        new PainlessPlugin().loadExtensions(new ExtensiblePlugin.ExtensionLoader() {
            @Override
            public <T> List<T> loadExtensions(Class<T> extensionPointType) {
                List<T> found = new ArrayList<>();
                ServiceLoader.load(extensionPointType, OpenSearchNode.class.getClassLoader()).forEach(found::add);
                return found;
            }
        });
    }

    public static void main(String[] args) throws Exception {
        // as the OpenSearch distribution's jvm.options does: our shutdown hook closes the node
        // and then log4j, so log4j must not stop itself first (and no JMX MBeans for it)
        System.setProperty("log4j.shutdownHookEnabled", System.getProperty("log4j.shutdownHookEnabled", "false"));
        System.setProperty("log4j2.disable.jmx", System.getProperty("log4j2.disable.jmx", "true"));

        int port = DEFAULT_HTTP_PORT;
        String env = System.getenv("OPENSEARCH_PORT");
        if (env != null && !env.isBlank()) {
            port = Integer.parseInt(env.trim());
        }
        Path base = null;
        String envBase = System.getenv("OPENSEARCH_BASE");
        if (envBase != null && !envBase.isBlank()) {
            base = Paths.get(envBase.trim());
        }
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--port":
                    port = Integer.parseInt(args[++i]);
                    break;
                case "--base":
                    base = Paths.get(args[++i]);
                    break;
                default:
                    System.err.println("usage: OpenSearchNode [--port N] [--base DIR]");
                    System.exit(2);
            }
        }
        if (base == null) {
            // .../target/classes -> .../target
            Path classes = Paths.get(OpenSearchNode.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            base = classes.getParent();
        }
        base = base.toAbsolutePath().normalize();
        String transportPort = System.getenv().getOrDefault("OPENSEARCH_TRANSPORT_PORT", DEFAULT_TRANSPORT_PORT);

        Path home = base.resolve("os-home");
        Path data = base.resolve("os-data");
        Path logs = base.resolve("os-logs");
        Files.createDirectories(home.resolve("config"));
        Files.createDirectories(home.resolve("plugins"));
        Files.createDirectories(home.resolve("modules"));
        Files.createDirectories(data);
        Files.createDirectories(logs);

        Settings settings = Settings.builder()
            .put("path.home", home.toString())
            .put("path.data", data.toString())
            .put("path.logs", logs.toString())
            .put("cluster.name", "tutor-memory-dev")
            .put("node.name", NODE_NAME)
            .put("discovery.type", "single-node")
            .put("network.host", "127.0.0.1")
            .put("http.port", port)
            .put("transport.port", transportPort)
            .put("http.type", "netty4")
            .put("transport.type", "netty4")
            .put("cluster.routing.allocation.disk.threshold_enabled", false)
            .put("action.destructive_requires_name", false)
            .build();

        // Logging: INFO and up to stdout (node.sh sends stdout to target/opensearch.log).
        Files.writeString(home.resolve("config").resolve("log4j2.properties"), LOG4J2_PROPERTIES);

        Environment environment = InternalSettingsPreparer.prepareEnvironment(
            settings, Collections.emptyMap(), null, () -> NODE_NAME);

        LogConfigurator.registerErrorListener();
        LogConfigurator.setNodeName(NODE_NAME);
        LogConfigurator.configure(environment);
        Logger log = LogManager.getLogger(OpenSearchNode.class);

        List<Class<? extends Plugin>> plugins = new ArrayList<>();
        for (String name : PLUGIN_CLASSES) {
            plugins.add(Class.forName(name).asSubclass(Plugin.class));
        }

        loadPainlessExtensions();

        Node node = new ClasspathPluginNode(environment, plugins);
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                log.info("shutting down OpenSearch node");
                node.close();
                if (!node.awaitClose(30, TimeUnit.SECONDS)) {
                    log.warn("node did not close within 30s");
                }
                System.out.println("OPENSEARCH STOPPED");
                System.out.flush();
            } catch (Exception e) {
                e.printStackTrace();
            } finally {
                stopped.countDown();
                LogManager.shutdown();
            }
        }, "opensearch-node-shutdown"));

        int boundPort;
        try {
            node.start();
            HttpServerTransport http = node.injector().getInstance(HttpServerTransport.class);
            boundPort = http.boundAddress().publishAddress().getPort();
        } catch (Throwable t) {
            // e.g. port already in use: node threads would otherwise keep the JVM alive
            log.error("OpenSearch node failed to start", t);
            System.err.println("OPENSEARCH FAILED: " + t);
            System.exit(1);
            return;
        }
        System.out.println("OPENSEARCH READY http://127.0.0.1:" + boundPort);
        System.out.flush();

        stopped.await(); // keep main alive; node threads do the work until SIGTERM
    }
}
