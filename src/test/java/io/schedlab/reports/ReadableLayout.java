package io.schedlab.reports;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.openqa.selenium.chrome.ChromeDriver;

/**
 * What makes a page readable, checked in the browser at the widths people use: every chart's
 * text (axis labels, axis names, titles, legends; SVG renderer, so each is an element) lies
 * inside its chart's box, every axis has a name, bars start at zero, categories are not joined
 * by lines; on a page with tables, every column is within the viewport.
 */
final class ReadableLayout {

    static final List<Integer> WIDTHS = List.of(1920, 1400, 1280);
    static final int HEIGHT = 900;
    /** Problems of every chart on the page, as text; empty when all is well. */
    static final String CHART_PROBLEMS = "var out = [];"
            + "document.querySelectorAll('.chart').forEach(function (div) {"
            + "  var box = div.getBoundingClientRect(), c = echarts.getInstanceByDom(div), o = c.getOption();"
            + "  div.querySelectorAll('svg text').forEach(function (t) {"
            + "    var b = t.getBoundingClientRect();"
            + "    if (t.textContent.trim() === '' || b.width === 0) { return; }"
            + "    if (b.left < box.left - 1 || b.right > box.right + 1 || b.top < box.top - 1 || b.bottom > box.bottom + 1) {"
            + "      out.push(div.id + ': \"' + t.textContent + '\" at ' + Math.round(b.left) + '..' + Math.round(b.right)"
            + "        + ' x ' + Math.round(b.top) + '..' + Math.round(b.bottom) + ' outside ' + Math.round(box.left) + '..'"
            + "        + Math.round(box.right) + ' x ' + Math.round(box.top) + '..' + Math.round(box.bottom)); } });"
            + "  ['xAxis', 'yAxis'].forEach(function (dim) { o[dim].forEach(function (a, i) {"
            + "    if (!a.name) { out.push(div.id + ': ' + dim + ' ' + i + ' has no name'); } }); });"
            + "  o.series.forEach(function (s) {"
            + "    var y = c.getModel().getComponent('yAxis', s.yAxisIndex || 0).axis;"
            + "    var x = c.getModel().getComponent('xAxis', s.xAxisIndex || 0).axis;"
            + "    if (s.type === 'bar' && y.scale.getExtent()[0] > 0) { out.push(div.id + ': bars start at ' + y.scale.getExtent()[0]); }"
            + "    if (s.type === 'line' && x.type === 'category') { out.push(div.id + ': a line joins categories'); } }); });"
            + "return out;";
    /** Cells of every table row whose right edge is past the viewport, or tables that scroll sideways. */
    static final String TABLE_PROBLEMS = "var out = [], w = document.documentElement.clientWidth;"
            + "document.querySelectorAll('.scroll').forEach(function (s) {"
            + "  if (s.scrollWidth > s.clientWidth + 1) { out.push(s.firstChild.id + ' scrolls: ' + s.scrollWidth + ' > ' + s.clientWidth); } });"
            + "document.querySelectorAll('table tr').forEach(function (tr) {"
            + "  var last = tr.lastElementChild; if (!last) { return; }"
            + "  var r = last.getBoundingClientRect().right;"
            + "  if (r > w + 1) { out.push((tr.closest('table').id || 'table') + ': \"' + last.textContent + '\" ends at ' + Math.round(r)"
            + "    + ' > viewport ' + w); } });"
            + "return out;";

    private ReadableLayout() {
    }

    /** Sets the viewport to width x {@link #HEIGHT} CSS px (the page gets a resize event). */
    static void viewport(ChromeDriver browser, int width) {
        browser.executeCdpCommand("Emulation.setDeviceMetricsOverride",
                Map.of("width", width, "height", HEIGHT, "deviceScaleFactor", 1, "mobile", false));
        browser.executeScript("window.dispatchEvent(new Event('resize'));");
    }

    /** At each of {@link #WIDTHS}: no chart problem and, with {@code tables}, no column off-screen; ends at 1280 px. */
    @SuppressWarnings("unchecked")
    static void assertReadable(ChromeDriver browser, String page, boolean tables) {
        for (int width : WIDTHS) {
            viewport(browser, width);
            assertThat((List<String>) browser.executeScript(CHART_PROBLEMS)).as(page + " charts at " + width + " px").isEmpty();
            if (tables) {
                assertThat((List<String>) browser.executeScript(TABLE_PROBLEMS)).as(page + " tables at " + width + " px").isEmpty();
            }
        }
    }
}
