package io.schedlab.reports;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

/** The page shell: data cannot close its script element, titles are escaped, scripts come from the app only. */
class ReportPageTest {

    @Test
    void dataAndTitleCannotInjectMarkup() {
        JsonMapper json = JsonMapper.builder().build();
        String data = json.writeValueAsString(java.util.Map.of("name", "</script><script>alert(1)</script>"));
        String page = ReportPage.render("experiment", "x</title><script>alert(2)</script>", data);
        assertThat(page).doesNotContain("</script><script>alert", "<script>alert(2)");
        String island = page.substring(page.indexOf("id=\"report-data\">") + 17, page.indexOf("</script>", page.indexOf("report-data")));
        assertThat(json.readTree(island).path("name").asString()).isEqualTo("</script><script>alert(1)</script>");
        assertThat(page).contains("<script src=\"/webjars/echarts/").contains("<script src=\"/app/report.js\">")
                .doesNotContain("http:", "https:");
    }
}
