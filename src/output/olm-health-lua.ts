// Internal: the Argo CD health scripts (Lua 5.1, as gopher-lua runs them) of the OLM kinds, one per kind. Each reads
// the live object as the global `obj` and returns `{ status, message }`, status one of Healthy, Progressing,
// Degraded, Suspended, Missing, Unknown (argo-cd `docs/operator-manual/health.md`). The statuses and reasons they
// read are cited beside each script; test/app/argocd-health/ runs each in Lua 5.1 against status objects in Argo CD's
// own `health_test.yaml` format.

/**
 * Helpers every script starts with (Argo CD runs each script alone, so each carries its own copy).
 * `condition(t)` finds a condition by type; `describe(c)` renders `Type=Status (Reason): message`;
 * `stale(c)` is true when a metav1.Condition was computed for an older generation of the spec.
 */
const PRELUDE = `local hs = {}
local function condition(t)
  if obj.status == nil or obj.status.conditions == nil then return nil end
  for _, c in ipairs(obj.status.conditions) do
    if c.type == t then return c end
  end
  return nil
end
local function describe(c)
  local s = c.type .. "=" .. tostring(c.status)
  if c.reason ~= nil and c.reason ~= "" then s = s .. " (" .. c.reason .. ")" end
  if c.message ~= nil and c.message ~= "" then s = s .. ": " .. c.message end
  return s
end
local function stale(c)
  return c ~= nil and c.observedGeneration ~= nil and obj.metadata ~= nil and obj.metadata.generation ~= nil
    and c.observedGeneration < obj.metadata.generation
end
local function result(status, message)
  hs.status = status
  hs.message = message
  return hs
end
`;

/**
 * Subscription (operators.coreos.com/v1alpha1). States and conditions: operator-framework/api
 * `pkg/operators/v1alpha1/subscription_types.go`; set by operator-lifecycle-manager
 * `pkg/controller/operators/catalog/subscription/state.go` (InstallPlanPending with the plan's phase as reason,
 * InstallPlanFailed, InstallPlanMissing with ReferencedInstallPlanNotFound once a plan is deleted) and
 * `pkg/controller/operators/catalog/operator.go` (ResolutionFailed, CatalogSourcesUnhealthy, BundleUnpack*,
 * the deprecation conditions, `state`). Compared with argo-cd's own
 * `resource_customizations/operators.coreos.com/Subscription/health.lua`: a first install waiting for a Manual
 * approval is Suspended (upstream: Progressing), an upgrade waiting for it is Healthy and says so (as upstream),
 * a deleted InstallPlan is a failure only before anything is installed, and messages carry OLM's reasons.
 * Healthy says what OLM knows here, no more: `ensureSubscriptionCSVState` (catalog/operator.go) sets AtLatestKnown and
 * installedCSV once the ClusterServiceVersion object exists, whatever its phase, so the message says the CSV exists.
 */
const SUBSCRIPTION = `${PRELUDE}
if obj.status == nil then
  return result("Progressing", "Waiting for OLM to resolve the Subscription")
end
local st = obj.status
local failed = {}
for _, t in ipairs({"ResolutionFailed", "CatalogSourcesUnhealthy", "InstallPlanFailed", "BundleUnpackFailed"}) do
  local c = condition(t)
  if c ~= nil and c.status == "True" then table.insert(failed, describe(c)) end
end
local missing = condition("InstallPlanMissing")
if missing ~= nil and missing.status == "True" and (st.installedCSV == nil or st.installedCSV == "") then
  table.insert(failed, describe(missing))
end
if st.state == "UpgradeFailed" then
  table.insert(failed, "state UpgradeFailed")
end
local deprecated = {}
for _, t in ipairs({"PackageDeprecated", "ChannelDeprecated", "BundleDeprecated"}) do
  local c = condition(t)
  if c ~= nil and c.status == "True" then table.insert(deprecated, describe(c)) end
end
local function with_notes(msg)
  if #deprecated > 0 then msg = msg .. "; " .. table.concat(deprecated, "; ") end
  return msg
end
if #failed > 0 then
  return result("Degraded", with_notes(table.concat(failed, "; ")))
end
local plan = ""
if st.installPlanRef ~= nil and st.installPlanRef.name ~= nil then plan = " " .. st.installPlanRef.name end
local pending = condition("InstallPlanPending")
if pending ~= nil and pending.status == "True" and pending.reason == "RequiresApproval" then
  local target = st.currentCSV or "the next version"
  if st.installedCSV ~= nil and st.installedCSV ~= "" then
    return result("Healthy", with_notes(st.installedCSV .. " exists; the upgrade to " .. target ..
      " waits for approval of InstallPlan" .. plan))
  end
  return result("Suspended", with_notes("Install of " .. target .. " waits for approval of InstallPlan" .. plan))
end
if pending ~= nil and pending.status == "True" then
  return result("Progressing", with_notes(describe(pending)))
end
local unpacking = condition("BundleUnpacking")
if unpacking ~= nil and unpacking.status == "True" then
  return result("Progressing", with_notes(describe(unpacking)))
end
if st.state == "AtLatestKnown" and st.installedCSV ~= nil and st.installedCSV ~= "" then
  if st.currentCSV ~= nil and st.currentCSV ~= "" and st.currentCSV ~= st.installedCSV then
    return result("Progressing", with_notes("Upgrading from " .. st.installedCSV .. " to " .. st.currentCSV))
  end
  return result("Healthy", with_notes(st.installedCSV .. " exists (AtLatestKnown); its phase is on the ClusterServiceVersion"))
end
if st.state == nil or st.state == "" then
  return result("Progressing", with_notes("Waiting for OLM to resolve the Subscription"))
end
return result("Progressing", with_notes("state " .. st.state .. (st.currentCSV ~= nil and (": " .. st.currentCSV) or "")))
`;

/**
 * InstallPlan (operators.coreos.com/v1alpha1). Phases and the Installed condition: operator-framework/api
 * `pkg/operators/v1alpha1/installplan_types.go`; set by operator-lifecycle-manager
 * `pkg/controller/operators/catalog/operator.go` (`syncInstallPlans`, `transitionInstallPlanState`: Failed with
 * the Installed condition's reason InstallComponentFailed / InstallCheckFailed and the API server's error, e.g. a
 * scoped install's "forbidden").
 */
const INSTALL_PLAN = `${PRELUDE}
if obj.status == nil or obj.status.phase == nil or obj.status.phase == "" then
  return result("Progressing", "Waiting for OLM to plan the install")
end
local phase = obj.status.phase
local csvs = ""
if obj.spec ~= nil and obj.spec.clusterServiceVersionNames ~= nil then
  csvs = table.concat(obj.spec.clusterServiceVersionNames, ", ")
end
if phase == "Complete" then
  return result("Healthy", "Installed " .. csvs)
end
if phase == "Failed" then
  local c = condition("Installed")
  if c ~= nil and c.status == "False" then return result("Degraded", describe(c)) end
  c = condition("Resolved")
  if c ~= nil and c.status == "False" then return result("Degraded", describe(c)) end
  if obj.status.message ~= nil and obj.status.message ~= "" then return result("Degraded", obj.status.message) end
  return result("Degraded", "Install of " .. csvs .. " failed")
end
if phase == "RequiresApproval" then
  return result("Suspended", "Install of " .. csvs .. " waits for approval (spec.approved)")
end
if phase == "Planning" or phase == "Installing" then
  return result("Progressing", phase .. " " .. csvs)
end
return result("Unknown", "Unknown phase " .. phase)
`;

/**
 * ClusterServiceVersion (operators.coreos.com/v1alpha1). Phases and reasons: operator-framework/api
 * `pkg/operators/v1alpha1/clusterserviceversion_types.go`; set by operator-lifecycle-manager
 * `pkg/controller/operators/olm/operator.go` (`transitionCSVState`). Pending with RequirementsNotMet lists the
 * requirements that are not Present (`status.requirementStatus`: the ServiceAccount, its permissions, CRDs, ...).
 * A copied CSV (reason Copied) in a target namespace mirrors its original.
 */
const CLUSTER_SERVICE_VERSION = `${PRELUDE}
if obj.status == nil or obj.status.phase == nil or obj.status.phase == "" then
  return result("Progressing", "Waiting for OLM to process the ClusterServiceVersion")
end
local st = obj.status
local function because()
  local s = ""
  if st.reason ~= nil and st.reason ~= "" then s = " (" .. st.reason .. ")" end
  if st.message ~= nil and st.message ~= "" then s = s .. ": " .. st.message end
  return s
end
local phase = st.phase
if phase == "Succeeded" then
  return result("Healthy", "Succeeded" .. because())
end
if phase == "Failed" then
  return result("Degraded", "Failed" .. because())
end
if phase == "Pending" then
  local unmet = {}
  if st.requirementStatus ~= nil then
    for _, r in ipairs(st.requirementStatus) do
      if r.status ~= "Present" then
        local s = r.kind .. " " .. r.name .. ": " .. tostring(r.status)
        if r.message ~= nil and r.message ~= "" then s = s .. " (" .. r.message .. ")" end
        table.insert(unmet, s)
      end
    end
  end
  local msg = "Pending" .. because()
  if #unmet > 0 then msg = msg .. "; unmet: " .. table.concat(unmet, "; ") end
  return result("Progressing", msg)
end
if phase == "InstallReady" or phase == "Installing" then
  return result("Progressing", phase .. because())
end
if phase == "Replacing" or phase == "Deleting" then
  return result("Progressing", phase .. because())
end
return result("Unknown", phase .. because())
`;

/**
 * CatalogSource (operators.coreos.com/v1alpha1). `status.connectionState.lastObservedState` is the gRPC
 * connectivity state of the registry (IDLE, CONNECTING, READY, TRANSIENT_FAILURE, SHUTDOWN;
 * operator-lifecycle-manager `pkg/controller/operators/catalog/operator.go` copies `source.ConnectionState.String()`);
 * `status.reason`/`message` carry a registry server or spec error (`catalogsource_types.go`, `SetError`).
 * TRANSIENT_FAILURE is what gRPC reports between two connection attempts (e.g. while the registry pod starts), so
 * it is Progressing, not Degraded: OLM keeps reconnecting.
 */
const CATALOG_SOURCE = `${PRELUDE}
if obj.status == nil then
  return result("Progressing", "Waiting for OLM to start the catalog")
end
local st = obj.status
if st.reason ~= nil and st.reason ~= "" then
  local msg = st.reason
  if st.message ~= nil and st.message ~= "" then msg = msg .. ": " .. st.message end
  return result("Degraded", msg)
end
if st.connectionState == nil or st.connectionState.lastObservedState == nil then
  return result("Progressing", "Waiting for a connection to the catalog")
end
local state = st.connectionState.lastObservedState
local where = ""
if st.connectionState.address ~= nil and st.connectionState.address ~= "" then where = " (" .. st.connectionState.address .. ")" end
if state == "READY" then return result("Healthy", "Catalog connection READY" .. where) end
if state == "SHUTDOWN" then
  return result("Degraded", "Catalog connection " .. state .. where)
end
return result("Progressing", "Catalog connection " .. state .. where)
`;

/**
 * OperatorGroup (operators.coreos.com/v1). Status and conditions: operator-framework/api
 * `pkg/operators/v1/operatorgroup_types.go`; set by operator-lifecycle-manager
 * `pkg/controller/operators/olm/operatorgroup.go` (status.namespaces; MultipleOperatorGroup with reason
 * MultipleOperatorGroupsFound) and `pkg/lib/scoped/syncer.go` (status.serviceAccountRef once the ServiceAccount of
 * spec.serviceAccountName exists; OperatorGroupServiceAccount with reason ServiceAccountNotFound until then).
 */
const OPERATOR_GROUP = `${PRELUDE}
local failed = {}
for _, t in ipairs({"MultipleOperatorGroup", "OperatorGroupServiceAccount"}) do
  local c = condition(t)
  if c ~= nil and c.status == "True" then table.insert(failed, describe(c)) end
end
if #failed > 0 then return result("Degraded", table.concat(failed, "; ")) end
if obj.status == nil or obj.status.namespaces == nil then
  return result("Progressing", "Waiting for OLM to resolve the target namespaces")
end
local sa = obj.spec ~= nil and obj.spec.serviceAccountName or nil
if sa ~= nil and sa ~= "" and obj.status.serviceAccountRef == nil then
  return result("Progressing", "Waiting for OLM to find ServiceAccount " .. sa)
end
local targets = table.concat(obj.status.namespaces, ", ")
if targets == "" then targets = "all namespaces" end
local msg = "Targets " .. targets
if sa ~= nil and sa ~= "" then msg = msg .. "; installs as ServiceAccount " .. sa end
return result("Healthy", msg)
`;

/**
 * ClusterExtension (olm.operatorframework.io/v1). Conditions: operator-controller `api/v1/common_types.go` and
 * `api/v1/clusterextension_types.go` (Installed, Progressing, the deprecation conditions); set by
 * `internal/operator-controller/controllers/common_controller.go` (`setStatusProgressing`: True/Succeeded on
 * success, True/Retrying on an error, False with the terminal error's reason - Blocked, InvalidConfiguration - or
 * ProgressDeadlineExceeded; Installed True/Succeeded once a bundle is installed).
 */
const CLUSTER_EXTENSION = `${PRELUDE}
local progressing = condition("Progressing")
local installed = condition("Installed")
if progressing == nil and installed == nil then
  return result("Progressing", "Waiting for operator-controller")
end
local notes = {}
for _, t in ipairs({"PackageDeprecated", "ChannelDeprecated", "BundleDeprecated"}) do
  local c = condition(t)
  if c ~= nil and c.status == "True" then table.insert(notes, describe(c)) end
end
local function with_notes(msg)
  if #notes > 0 then msg = msg .. "; " .. table.concat(notes, "; ") end
  return msg
end
if stale(progressing) or stale(installed) then
  return result("Progressing", with_notes("Waiting for operator-controller to reconcile generation " .. tostring(obj.metadata.generation)))
end
if progressing ~= nil and progressing.status == "False" then
  return result("Degraded", with_notes(describe(progressing)))
end
if progressing ~= nil and progressing.status == "True" and progressing.reason ~= "Succeeded" then
  return result("Progressing", with_notes(describe(progressing)))
end
if installed ~= nil and installed.status == "True" then
  local what = "Installed"
  local b = obj.status.install ~= nil and obj.status.install.bundle or nil
  if b ~= nil and b.name ~= nil then what = what .. " " .. b.name end
  if b ~= nil and b.version ~= nil then what = what .. " (" .. b.version .. ")" end
  return result("Healthy", with_notes(what))
end
if installed ~= nil then
  return result("Progressing", with_notes(describe(installed)))
end
return result("Progressing", with_notes("Waiting for operator-controller to install a bundle"))
`;

/**
 * ClusterCatalog (olm.operatorframework.io/v1). Conditions: operator-controller `api/v1/clustercatalog_types.go`
 * (Serving: Available, Unavailable, UserSpecifiedUnavailable) and `internal/catalogd/controllers/core/
 * clustercatalog_controller.go` (`updateStatusProgressing`: True/Succeeded, True/Retrying, False/Blocked on a
 * terminal error; `updateStatusProgressingUserSpecifiedUnavailable` for `spec.availabilityMode: Unavailable`).
 */
const CLUSTER_CATALOG = `${PRELUDE}
local serving = condition("Serving")
local progressing = condition("Progressing")
if serving == nil and progressing == nil then
  return result("Progressing", "Waiting for catalogd to unpack the catalog")
end
if stale(serving) or stale(progressing) then
  return result("Progressing", "Waiting for catalogd to reconcile generation " .. tostring(obj.metadata.generation))
end
if serving ~= nil and serving.status == "False" and serving.reason == "UserSpecifiedUnavailable" then
  return result("Suspended", describe(serving))
end
if progressing ~= nil and progressing.status == "False" then
  return result("Degraded", describe(progressing))
end
if serving ~= nil and serving.status == "True" then
  if progressing ~= nil and progressing.reason == "Retrying" then
    return result("Healthy", describe(serving) .. "; " .. describe(progressing))
  end
  return result("Healthy", describe(serving))
end
if progressing ~= nil then
  return result("Progressing", describe(progressing))
end
return result("Progressing", describe(serving))
`;

/** The scripts by `<group>_<kind>` (Argo CD's `resource.customizations.health.<group>_<kind>` key suffix). */
export const OLM_HEALTH_LUA: ReadonlyArray<{ group: string; kind: string; script: string }> = [
  { group: 'operators.coreos.com', kind: 'Subscription', script: SUBSCRIPTION },
  { group: 'operators.coreos.com', kind: 'InstallPlan', script: INSTALL_PLAN },
  { group: 'operators.coreos.com', kind: 'ClusterServiceVersion', script: CLUSTER_SERVICE_VERSION },
  { group: 'operators.coreos.com', kind: 'CatalogSource', script: CATALOG_SOURCE },
  { group: 'operators.coreos.com', kind: 'OperatorGroup', script: OPERATOR_GROUP },
  { group: 'olm.operatorframework.io', kind: 'ClusterExtension', script: CLUSTER_EXTENSION },
  { group: 'olm.operatorframework.io', kind: 'ClusterCatalog', script: CLUSTER_CATALOG },
];
