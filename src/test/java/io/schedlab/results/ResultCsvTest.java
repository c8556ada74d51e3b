package io.schedlab.results;

import static org.assertj.core.api.Assertions.assertThat;

import io.schedlab.engine.Engine;
import io.schedlab.engine.Validation;
import io.schedlab.engine.output.ResultDocument;
import io.schedlab.engine.run.RunControl;
import io.schedlab.engine.spec.ExperimentSpec;
import io.schedlab.engine.spec.Limits;
import java.io.IOException;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVParser;
import org.apache.commons.csv.CSVRecord;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The result CSVs say what the JSON says under the same names: every column of a row is the VM's (or vCPU's)
 * field of that name in the result document, a nested one's path flattened, with the same value; a headline's
 * unit has its own column; lines end with LF.
 */
class ResultCsvTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @Test
    void vmRowsAreTheDocumentsVmsUnderTheirFlattenedNames() throws Exception {
        ResultDocument doc = run("examples/seed-001-static.json");
        JsonNode vms = JSON.valueToTree(doc).path("vms");
        List<CSVRecord> rows = parse(ResultCsv.table(doc, "vms"), ResultCsv.VM_COLUMNS);
        assertThat(rows).hasSize(vms.size()).hasSizeGreaterThan(1);
        for (int i = 0; i < rows.size(); i++) {
            CSVRecord row = rows.get(i);
            JsonNode vm = vms.path(i);
            assertThat(row.get("vm")).isEqualTo(vm.path("name").asString());
            assertThat(row.get("partial")).isEqualTo(String.valueOf(doc.partial()));
            assertSameAsJson(row, flatten(vm), List.of("vm", "partial"));
            if (!row.get("headlineValue").isEmpty()) {
                assertThat(row.get("headlineUnit")).as("a headline names its unit").isNotBlank();
            }
        }
    }

    @Test
    void vcpuRowsAreTheDocumentsVcpusUnderTheirFlattenedNames() throws Exception {
        ResultDocument doc = run("examples/seed-001-static.json");
        JsonNode vms = JSON.valueToTree(doc).path("vms");
        List<CSVRecord> rows = parse(ResultCsv.table(doc, "vcpus"), ResultCsv.VCPU_COLUMNS);
        int at = 0;
        for (JsonNode vm : vms) {
            for (JsonNode vcpu : vm.path("vcpus")) {
                CSVRecord row = rows.get(at++);
                assertThat(row.get("vm")).isEqualTo(vm.path("name").asString());
                assertSameAsJson(row, flatten(vcpu), List.of("vm", "partial"));
            }
        }
        assertThat(rows).hasSize(at).hasSizeGreaterThan(2);
    }

    private static void assertSameAsJson(CSVRecord row, Map<String, JsonNode> fields, List<String> notFields) {
        for (Map.Entry<String, String> cell : row.toMap().entrySet()) {
            if (notFields.contains(cell.getKey())) {
                continue;
            }
            assertThat(fields).as("column %s is a field of the JSON", cell.getKey()).containsKey(cell.getKey());
            JsonNode value = fields.get(cell.getKey());
            if (value.isNull()) {
                assertThat(cell.getValue()).as(cell.getKey()).isEmpty();
            } else if (value.isNumber()) {
                assertThat(Double.parseDouble(cell.getValue())).as(cell.getKey()).isEqualTo(value.asDouble());
            } else {
                assertThat(cell.getValue()).as(cell.getKey()).isEqualTo(value.asString());
            }
        }
    }

    /** The object's scalar fields, a nested object's as its path in camel case (headline.unit: headlineUnit). */
    private static Map<String, JsonNode> flatten(JsonNode node) {
        Map<String, JsonNode> out = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> field : node.properties()) {
            if (field.getValue().isObject()) {
                flatten(field.getValue()).forEach((name, value) -> out.put(field.getKey()
                        + Character.toUpperCase(name.charAt(0)) + name.substring(1), value));
            } else if (!field.getValue().isArray()) {
                out.put(field.getKey(), field.getValue());
            }
        }
        return out;
    }

    private static List<CSVRecord> parse(String csv, List<String> columns) throws IOException {
        assertThat(csv).as("LF line ends").doesNotContain("\r").endsWith("\n");
        try (CSVParser parser = CSVParser.parse(new StringReader(csv),
                CSVFormat.RFC4180.builder().setHeader().setSkipHeaderRecord(true).get())) {
            assertThat(parser.getHeaderNames()).containsExactlyElementsOf(columns);
            return parser.getRecords();
        }
    }

    private static ResultDocument run(String example) throws IOException {
        Engine engine = Engine.standard();
        Validation v = engine.validate(JSON.readValue(Files.readString(Path.of(example)), ExperimentSpec.class),
                Limits.defaults());
        assertThat(v.valid()).as(v.violations().toString()).isTrue();
        return engine.run(v.normalized(), Limits.defaults(), RunControl.NONE);
    }
}
