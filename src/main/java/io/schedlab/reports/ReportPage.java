package io.schedlab.reports;

/**
 * One report page: a small HTML shell whose data travels inside it as a JSON island
 * ({@code <script type="application/json">}, not executed), drawn by the application's own
 * scripts ({@code /app/report.js} with ECharts from {@code /webjars}); nothing from elsewhere,
 * so it works offline and under a CSP that allows only scripts from the application.
 */
public final class ReportPage {

    /** ECharts as served from its WebJar (org.webjars.npm:echarts), at the version on the classpath. */
    public static final String ECHARTS = "/webjars/echarts/" + webJarVersion() + "/dist/echarts.min.js";

    private ReportPage() {
    }

    /** The page; {@code kind} is "experiment" or "sweep", {@code dataJson} the data the script draws. */
    public static String render(String kind, String title, String dataJson) {
        return "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                + "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
                + "<title>" + escapeHtml(title) + "</title>\n"
                + "<link rel=\"icon\" href=\"data:,\">\n"
                + "<link rel=\"stylesheet\" href=\"/app/style.css\">\n</head>\n"
                + "<body data-report=\"" + escapeHtml(kind) + "\">\n"
                + "<header><a href=\"/\">SchedLab</a> <span class=\"sep\">/</span> <h1>" + escapeHtml(title) + "</h1></header>\n"
                + "<main id=\"report\"></main>\n"
                + "<script type=\"application/json\" id=\"report-data\">" + scriptSafe(dataJson) + "</script>\n"
                + "<script src=\"" + ECHARTS + "\"></script>\n"
                + "<script src=\"/app/report.js\"></script>\n</body>\n</html>\n";
    }

    private static String webJarVersion() {
        try (java.io.InputStream in = ReportPage.class.getResourceAsStream(
                "/META-INF/maven/org.webjars.npm/echarts/pom.properties")) {
            java.util.Properties p = new java.util.Properties();
            if (in == null) {
                throw new IllegalStateException("the echarts WebJar is not on the classpath");
            }
            p.load(in);
            return p.getProperty("version");
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    static String escapeHtml(String s) {
        if (s == null) {
            return "";
        }
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;")
                .replace("'", "&#39;");
    }

    /** JSON that cannot close its script element: every '<' as the JSON escape \u003c (valid in strings, absent elsewhere). */
    static String scriptSafe(String json) {
        return json.replace("<", "\\u003c").replace("\u2028", "\\u2028").replace("\u2029", "\\u2029");
    }
}
