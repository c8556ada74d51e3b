package io.schedlab.experiments.persistence;

import jakarta.persistence.EntityManager;
import jakarta.persistence.criteria.CriteriaBuilder;
import jakarta.persistence.criteria.CriteriaQuery;
import jakarta.persistence.criteria.Predicate;
import jakarta.persistence.criteria.Root;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** Criteria-API implementation of {@link ExperimentQueries}; labels match on their canonical JSON text. */
class ExperimentQueriesImpl implements ExperimentQueries {

    private final EntityManager em;

    ExperimentQueriesImpl(EntityManager em) {
        this.em = em;
    }

    @Override
    public List<ExperimentRow> findRows(ExperimentFilter filter) {
        CriteriaBuilder cb = em.getCriteriaBuilder();
        CriteriaQuery<ExperimentRow> q = cb.createQuery(ExperimentRow.class);
        Root<ExperimentEntity> e = q.from(ExperimentEntity.class);
        q.select(cb.construct(ExperimentRow.class, e.get("id"), e.get("name"), e.get("labels"), e.get("policy"),
                e.get("status"), e.get("progress"), e.get("simulatedNanos"), e.get("createdAt"), e.get("startedAt"),
                e.get("finishedAt"), e.get("failureReason"), e.get("cancelRequested"), e.get("engineVersion"),
                e.get("wallSeconds"), e.get("events"), e.get("contextSwitches"), e.get("migrations"),
                e.get("jainFairness"), e.get("owner"), e.get("runBy")));
        q.where(predicates(cb, e, filter));
        q.orderBy(cb.desc(e.get("createdAt")), cb.desc(e.get("id")));
        return em.createQuery(q)
                .setFirstResult(filter.page() * filter.size())
                .setMaxResults(filter.size())
                .getResultList();
    }

    @Override
    public long countRows(ExperimentFilter filter) {
        CriteriaBuilder cb = em.getCriteriaBuilder();
        CriteriaQuery<Long> q = cb.createQuery(Long.class);
        Root<ExperimentEntity> e = q.from(ExperimentEntity.class);
        q.select(cb.count(e)).where(predicates(cb, e, filter));
        return em.createQuery(q).getSingleResult();
    }

    private static Predicate[] predicates(CriteriaBuilder cb, Root<ExperimentEntity> e, ExperimentFilter f) {
        List<Predicate> ps = new ArrayList<>();
        if (f.owner() != null) {
            ps.add(cb.equal(e.get("owner"), f.owner()));
        }
        if (f.status() != null) {
            ps.add(cb.equal(e.get("status"), f.status()));
        }
        if (f.nameContains() != null && !f.nameContains().isEmpty()) {
            ps.add(cb.like(cb.lower(e.get("name")), "%" + escapeLike(f.nameContains().toLowerCase(Locale.ROOT)) + "%",
                    '\\'));
        }
        if (f.labels() != null) {
            for (Map.Entry<String, String> label : f.labels().entrySet()) {
                ps.add(cb.like(e.get("labels"), "%" + escapeLike(LabelsJson.fragment(label.getKey(), label.getValue()))
                        + "%", '\\'));
            }
        }
        return ps.toArray(new Predicate[0]);
    }

    static String escapeLike(String s) {
        return s.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_");
    }
}
