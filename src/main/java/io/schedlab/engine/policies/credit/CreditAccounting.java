package io.schedlab.engine.policies.credit;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * credit1's global accounting (credit.c: prv->active_sdom, prv->weight, prv->credit_balance,
 * {@code csched_acct}, {@code __csched_unit_acct_start/stop}): which vCPUs are active, and the
 * once-per-timeslice share-out of credit by weight, bounded by caps, that sets priorities and
 * parks or unparks capped vCPUs (through the policy's callbacks).
 */
final class CreditAccounting {
    private final CreditParams params;
    private final Consumer<CreditVcpu> park;
    private final Consumer<CreditVcpu> unpark;
    /** prv->active_sdom in list order. */
    private final List<CreditDomain> activeDomains = new ArrayList<>();
    /** prv->weight: sum of weight x active vCPUs over active domains. */
    private long totalWeight;
    /** prv->credit_balance. */
    private long creditBalance;

    CreditAccounting(CreditParams params, Consumer<CreditVcpu> park, Consumer<CreditVcpu> unpark) {
        this.params = params;
        this.park = park;
        this.unpark = unpark;
    }

    long totalWeight() {
        return totalWeight;
    }

    /** csched_dom_cntl: keep prv->weight consistent with a domain's new weight. */
    void weightChanged(CreditDomain sdom, int weight) {
        if (sdom.onActiveList) {
            totalWeight -= (long) sdom.weight * sdom.activeVcpus.size();
            totalWeight += (long) weight * sdom.activeVcpus.size();
        }
        sdom.weight = weight;
    }

    /** __csched_unit_acct_start: join the active list (and the domain, the active domains). */
    void start(CreditVcpu svc) {
        CreditDomain sdom = svc.dom;
        svc.active = true;
        sdom.activeVcpus.add(svc);
        totalWeight += sdom.weight;
        if (!sdom.onActiveList) {
            sdom.onActiveList = true;
            activeDomains.add(sdom);
        }
    }

    /** __csched_unit_acct_stop_locked. */
    void stop(CreditVcpu svc) {
        CreditDomain sdom = svc.dom;
        svc.active = false;
        sdom.activeVcpus.remove(svc);
        totalWeight -= sdom.weight;
        if (sdom.activeVcpus.isEmpty() && sdom.onActiveList) {
            sdom.onActiveList = false;
            activeDomains.remove(sdom);
        }
    }

    /**
     * csched_acct: share prv->credit among active domains by weight x active vCPUs, bounded by
     * what the active vCPUs can use and by the cap; recompute priorities; park/unpark capped
     * vCPUs; vCPUs above one slice of credit leave the active list with their credit halved.
     */
    void account(int n) {
        int perTslice = params.creditsPerTslice();
        long weightTotal = totalWeight;
        long creditTotal = (long) perTslice * n;
        if (creditBalance < 0) {
            creditTotal -= creditBalance;
        }
        if (weightTotal == 0) {
            creditBalance = 0;
            return;
        }
        long weightLeft = weightTotal;
        long balance = 0;
        boolean creditXtra = false;
        List<CreditDomain> order = new ArrayList<>(activeDomains);
        for (CreditDomain sdom : order) {
            int active = sdom.activeVcpus.size();
            if (active == 0) {
                continue;
            }
            weightLeft -= (long) sdom.weight * active;
            long creditPeak = (long) active * perTslice;
            if (creditBalance < 0) {
                // earn more only while the system-wide balance is negative
                creditPeak += ((-creditBalance * sdom.weight * active) + (weightTotal - 1)) / weightTotal;
            }
            long creditCap = 0;
            int cap = sdom.vm.cap;
            if (cap != 0) {
                creditCap = ((long) cap * perTslice + 99) / 100;
                if (creditCap < creditPeak) {
                    creditPeak = creditCap;
                }
                creditCap = (creditCap + (active - 1)) / active;
            }
            long creditFair = (creditTotal * sdom.weight * active + (weightTotal - 1)) / weightTotal;
            if (creditFair < creditPeak) {
                creditXtra = true;
            } else {
                if (weightLeft != 0) {
                    // Give other domains a chance at unused credits.
                    creditTotal += ((creditFair - creditPeak) * weightTotal + (weightLeft - 1)) / weightLeft;
                }
                if (creditXtra) {
                    // Keep domains with extra credits at the head of the list.
                    activeDomains.remove(sdom);
                    activeDomains.add(0, sdom);
                }
                creditFair = creditPeak;
            }
            creditFair = (creditFair + (active - 1)) / active;
            for (CreditVcpu svc : new ArrayList<>(sdom.activeVcpus)) {
                svc.credit += (int) creditFair;
                int credit = svc.credit;
                if (credit < 0) {
                    svc.pri = CreditVcpu.PRI_OVER;
                    if (cap != 0 && credit < -creditCap && !svc.parked) {
                        park.accept(svc);
                    }
                    if (credit < -perTslice) {
                        svc.credit = -perTslice;
                    }
                } else {
                    svc.pri = CreditVcpu.PRI_UNDER;
                    if (svc.parked) {
                        unpark.accept(svc);
                    }
                    if (credit > perTslice) {
                        stop(svc);
                        svc.credit = credit / 2;
                    }
                }
                balance += svc.credit;
            }
        }
        creditBalance = balance;
    }

}
