export interface Config {
  infrared?: {
    /** Who counts as a platform admin: may register, remove and build clusters. */
    platformAdmins?: {
      /** Entity refs of groups whose members are platform admins. Default group:default/platform-admins. */
      groups?: string[];
      /**
       * Whether the guest user of local development (user:development/guest) is a platform admin.
       * Only for `npm start` on a laptop; keep false in production.
       */
      allowGuest?: boolean;
    };

    /** The cluster the backend and Argo CD run on, where the Cluster resources live. */
    managementCluster?: {
      /** Name of its Cluster resource (made on start when missing). Default infrared-mgmt. */
      name?: string;
      /**
       * A kubeconfig file (its current context) to reach it with, relative to the repository root or
       * absolute. When absent, the backend uses its pod's service account (in-cluster config).
       * `npm start` points it at the local control plane of packages/devenv.
       */
      kubeconfigPath?: string;
    };

    /**
     * One installation per management cluster (README, "One installation per management cluster"):
     * the installation holding the Lease `infrared-installation` in namespace `infrared` reconciles
     * and writes; a backend with another id finding it renewed neither reconciles nor writes (its
     * writes answer 409 naming the holder) and takes over once the Lease expires.
     */
    installation?: {
      /**
       * This installation's id, the Lease's holderIdentity: every replica of one installation must
       * have the same, two installations different ones. Default derived from the portal's URL and
       * the GitHub repository, `app=<app.baseUrl> gitops=<infrared.gitops.repoUrl>`; with a `local`
       * repository (development) `gitops=local`, whatever its path.
       */
      id?: string;
      /**
       * How long the Lease holds without a renewal, e.g. `60s`; whole seconds, at least 1 s. Replicas
       * renew it every quarter of it, at most every 15 s; another installation takes over one
       * duration after the last replica stopped. Default 60 s.
       */
      leaseDuration?:
        | string
        | {
            milliseconds?: number;
            seconds?: number;
            minutes?: number;
            hours?: number;
          };
    };

    /** Reconciliation of Clusters (Connected, Argo CD Secret, Registered) on the Backstage scheduler. */
    reconcile?: {
      /**
       * Time between passes, e.g. `30s`, `2m`, an ISO duration or `{ seconds: 30 }`. Default 30 s.
       * An API write starts a pass at once.
       */
      interval?:
        | string
        | {
            milliseconds?: number;
            seconds?: number;
            minutes?: number;
            hours?: number;
          };
    };

    /** The platform's gitops repository, which registrations change by pull request. */
    gitops?: {
      /** `local` (a bare git repository on disk, for development) or `github`. Default local. */
      type?: 'local' | 'github';
      /** For `local`: the bare repository, relative to the repository root or absolute. Default .data/gitops.git. */
      path?: string;
      /** For `github`: the https URL of the repository (credentials from integrations.github). */
      repoUrl?: string;
      /**
       * The URL Argo CD clones the repository from: the `source.repoURL` of the Applications Infrared
       * writes (app-of-apps, cluster components, zones). Default for `local`: `file://<absolute path>`,
       * which only an Argo CD on this machine can read; point it at a git server that serves the repository
       * (devenv's loopback `git daemon`: `git://127.0.0.1:<port>/gitops.git`). Default for `github`:
       * `repoUrl`, which is the repository's https clone URL; set it for another (e.g. an ssh URL).
       */
      argocdRepoUrl?: string;
      /** For `github`: the default branch; read from GitHub when absent. */
      branch?: string;
      /** For `github`: how pull requests are merged. Default merge. */
      mergeMethod?: 'merge' | 'squash' | 'rebase';
      /**
       * Merge each pull request as soon as it is opened. Default true. When the repository requires reviews
       * or checks, the pull request stays open either way and is merged once GitHub allows it (or by a
       * human). False: Infrared only opens the pull request and a human merges it; the Cluster is Registered
       * once it is merged. GitHub only: the `local` repository has no one to review, it always merges (and
       * warns at startup when this is false).
       */
      autoMerge?: boolean;
      /**
       * Registrations and removals that arrive together (one reconcile pass over many clusters) are
       * published as one change, one pull request; one that arrives alone gets its own.
       */
      batch?: {
        /** The files (written plus deleted) one batched change may hold. Default 1000 (250 registrations: 4 files each; GitHub lists up to 3,000 files of a pull request). */
        maxFilesPerChange?: number;
      };
    };

    /** Zone placement and the release gate (issue 15). */
    placement?: {
      /**
       * The Argo CD AppProject of zone Applications, read from namespace argocd before a zone is
       * promoted (it must allow the zone's destination). Default products.
       */
      project?: string;
      /**
       * Time between release gate passes, e.g. `1m`, an ISO duration or `{ minutes: 1 }`. Default one
       * minute. An allowlist or zone change starts a pass at once.
       */
      gateInterval?:
        | string
        | {
            milliseconds?: number;
            seconds?: number;
            minutes?: number;
            hours?: number;
          };
      /**
       * Watch the gate's inputs (Organizations' allowlists, Products, Clusters, Releases) on the
       * management cluster and pass in-process within a fraction of a second of a change, so the
       * placement card's Release column follows its Decision column. Default false (the schedule
       * and the placement routes' own writes alone); app-config.yaml and app-config.production.yaml
       * turn it on. Off in tests that share one control plane between backends of different
       * configurations: each would pass over the others' Releases.
       */
      watch?: boolean;
    };

    /**
     * Clusters built with OpenTofu (issue 14): a Cluster with spec.template and spec.provision gets
     * one Job `tofu-<cluster>-<generation>-<action>` in namespace infrared per generation and
     * action, run by the global scheduled task `infrared-provisioning`.
     */
    provisioning?: {
      /** Run the OpenTofu Jobs of built Clusters and offer the provisioning routes. Default true. */
      enabled?: boolean;
      /**
       * The namespace the OpenTofu Jobs run in, default `infrared-tofu` (the chart's
       * `provisioning.namespace`, Pod Security `restricted`). It holds each Cluster's state Secret,
       * lock Lease, ServiceAccount and Role, and the credentials Secrets Clusters name
       * (provision.credentialsSecretRef names a Secret here).
       */
      namespace?: string;
      /**
       * The images provision.image may name; anything else is refused (400 naming the field, and
       * the executor makes no Job). Default: `ghcr.io/opentofu/opentofu:1.10` and the templates'
       * `image`s.
       */
      allowedImages?: string[];
      /**
       * The module sources provision.source may name (a path starting with ./ or ../ is relative to
       * the repository root); anything else is refused. Default: the templates' `source`s.
       */
      allowedSources?: string[];
      /**
       * A JSON file a local environment writes while it prepares what runs the Jobs: devenv's
       * `.data/devenv/prepare.json`, which `npm start` names (tofu built in the background). While
       * it says OpenTofu is not ready, the register form says "OpenTofu is being prepared (about N
       * min left)"; builds started meanwhile wait, then run. Unset: always ready.
       */
      runnerStatusFile?: string;
      /**
       * Watch the OpenTofu Jobs and their Pods (needs `watch` on jobs and pods in the Jobs'
       * namespace: deploy/rbac/50-tofu.yaml grants it), so a Pod that starts and a Job that ends
       * reach the Cluster's status within a pass instead of at the next scheduled one. Default
       * false (tests that share one control plane between backends of different configurations
       * would pass over each other's Clusters); app-config.yaml turns it on.
       */
      watch?: boolean;
      /**
       * Time between passes, e.g. `15s`, an ISO duration or `{ seconds: 15 }`. Default 15 s. An API
       * write (POST /v1/clusters with a template, the action route) runs a pass at once.
       */
      interval?:
        | string
        | {
            milliseconds?: number;
            seconds?: number;
            minutes?: number;
            hours?: number;
          };
      /**
       * The cluster templates the API (POST /v1/clusters with `template`) and the register form
       * offer; a request naming another module and version is refused. None by default.
       */
      templates?: Array<{
        /** The module path, e.g. aws/k3s-node (`template.module`). */
        module: string;
        /** The tag, e.g. v0.2.3 (`template.version`); the default source uses it as `?ref=`. */
        version?: string;
        /** What the form shows. Default the module. */
        title?: string;
        description?: string;
        /**
         * The module source when the Cluster's provision.source is empty, instead of
         * git::https://github.com/darkshiftio/infrared-iac-modules//<module>?ref=<version>. A path
         * starting with ./ or ../ is relative to the repository root.
         */
        source?: string;
        /** The OpenTofu image for this template when the Cluster's provision.image is empty. */
        image?: string;
        /** The module's inputs: checked on every request; a variable without default is required. */
        variables?: Array<{
          name: string;
          /** Checked as such; the value is still sent as a string (TF_VAR_<name>). Default string. */
          type?: 'string' | 'number' | 'bool' | 'list' | 'map' | 'object';
          title?: string;
          description?: string;
          default?: string;
          /**
           * The platform's own (a path of the machine): its default is always used, the form does
           * not show it, and a request setting it is refused. Needs a default.
           */
          internal?: boolean;
        }>;
      }>;
      /** Auto-registration after a successful apply. */
      autoRegister?: {
        /** Default true. */
        enabled?: boolean;
        /**
         * The module output holding the built cluster's kubeconfig, read from the state Secret
         * tfstate-default-cluster-<name>. Default kubeconfig.
         */
        output?: string;
      };
    };

    // ---------------------------------------------------------------------------------------------
    // registrar: child-cluster registrar (issue 6), owned by plugins/infrared-backend/src/registrar
    // ---------------------------------------------------------------------------------------------
    /**
     * The child-cluster registrar: finds k3k, vcluster, kamaji and Cluster API child clusters in
     * namespaces labelled `<labelPrefix>managed-by: <managedBy>` and `<labelPrefix>cluster: <name>`,
     * and keeps an Argo CD cluster Secret `cluster-<name>` in `targetNamespace` for each (the
     * behaviour of argocd-cluster-registrar v0.6). Runs as a global scheduled task
     * `infrared-registrar`. Invalid values and unknown keys stop the backend at startup, naming
     * the key. Upstream's values map as they are (targetNamespace, labelPrefix, managedBy,
     * interval, dryRun; secretNamePattern/secretKey as one deprecated provider); its `debug` is
     * refused, naming backend.logger.overrides instead.
     */
    registrar?: {
      /** Run the registrar. Default false. */
      enabled?: boolean;
      /**
       * Publish each registered child's registration files (the ones a Cluster's registration
       * writes: the app-of-apps `cluster-<name>.yaml`, `components/infrared.yaml`,
       * `infrared/cluster-info.yaml`) through the gitops publisher, one change per child
       * (`register-child-<name>`), and their removal when the registrar deletes the child's Secret,
       * so that Argo CD monitors the child (Successful). Default true.
       */
      gitops?: boolean;
      /** Namespace Argo CD reads cluster Secrets from. Default argocd. */
      targetNamespace?: string;
      /**
       * Prefix of the labels read off source namespaces and written on cluster Secrets: non-empty,
       * ending in '/', not inside argocd.argoproj.io/. Default argocd-cluster-registrar/.
       */
      labelPrefix?: string;
      /** Value of `<labelPrefix>managed-by`: which namespaces and Secrets this instance owns. Default cluster-registrar. */
      managedBy?: string;
      /**
       * Provisioner shapes, in precedence order: presets (k3k, vcluster, kamaji, capi, capa-eks,
       * capz-aks), `name=glob=key[,key][=exec]`, or custom objects. Default [k3k].
       */
      providers?: Array<
        | string
        | {
            /** Written as the `<labelPrefix>provider` label; a preset name alone selects the preset. */
            name: string;
            /** Go path.Match glob over Secret names in a managed namespace, e.g. `k3k-*-kubeconfig`. */
            secretNamePattern?: string;
            /** Data keys that may hold the kubeconfig, tried in order. */
            keys?: string[];
            /** Exec credentials may be converted (also needs execCredentials). */
            allowExec?: boolean;
            /** The provisioner's Secret type, preferred when several Secrets match. */
            secretType?: string;
          }
      >;
      /** Time between passes: a Go duration (`60s`), ISO 8601, seconds, or `{ seconds: 60 }`. Default 60s; must be > 0. */
      interval?:
        | string
        | number
        | {
            milliseconds?: number;
            seconds?: number;
            minutes?: number;
            hours?: number;
            days?: number;
          };
      /** Delete demoted (renamed-away) registrations this long after demotion; 0 = never. Default 0. */
      demotedTtl?:
        | string
        | number
        | {
            milliseconds?: number;
            seconds?: number;
            minutes?: number;
            hours?: number;
            days?: number;
          };
      /** Convert exec credentials (aws, aws-iam-authenticator, kubelogin) for providers that allow it. Default false. */
      execCredentials?: boolean;
      /** Log what would change; write nothing. Default false. */
      dryRun?: boolean;
      /**
       * Deprecated (upstream's 0.2 `secretNamePattern` value, the CLI's --secret-name-pattern): one
       * provider named `custom` (upstream's label value) with this glob and `secretKey` (default `k3k-*-kubeconfig`). Not
       * with `providers`; use `providers: ['custom=<glob>=<key>']` instead.
       * @deprecated use providers
       */
      secretNamePattern?: string;
      /**
       * Deprecated (upstream's 0.2 `secretKey` value, the CLI's --secret-key): the key of the
       * `secretNamePattern` provider (default `kubeconfig.yaml`).
       * @deprecated use providers
       */
      secretKey?: string;
    };
  };
}
