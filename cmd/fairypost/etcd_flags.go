package main

import (
	"flag"
	"strings"

	"github.com/fairypost/fairypost/storage/etcdstore"
)

// etcdPasswordEnv names the environment variable that holds the password
// of -etcd-user (a password on the command line would show in ps).
const etcdPasswordEnv = "FAIRYPOST_ETCD_PASSWORD"

// etcdFlags are the flags with which migrate and backup reach an etcd
// cluster: its endpoints come from the command's own address flag
// (etcd:URL,...), or from the configuration file named by -config; TLS,
// credentials, the key prefix and the dial timeout come from the flags
// here, each falling back on the file's [storage.etcd] when given.
type etcdFlags struct {
	config              string
	cert, key, ca, user string
	prefix              string
	cfg                 *EtcdConfig // read from config by load
	cfgBackend, cfgPath string      // the file's storage.backend and storage.path
	fs                  *flag.FlagSet
}

// register declares the flags on fs.
func (e *etcdFlags) register(fs *flag.FlagSet) {
	e.fs = fs
	fs.StringVar(&e.config, "config", "", "the bot's configuration `FILE`: its [storage.etcd] gives what -etcd-* and -prefix leave out")
	fs.StringVar(&e.prefix, "prefix", "", "the etcd key `PREFIX` (default: storage.etcd.prefix of -config, else "+etcdstore.DefaultPrefix+")")
	fs.StringVar(&e.cert, "etcd-cert", "", "client certificate `FILE` (PEM) for members that require one")
	fs.StringVar(&e.key, "etcd-key", "", "the client certificate's key `FILE` (PEM)")
	fs.StringVar(&e.ca, "etcd-ca", "", "the certificate authority `FILE` (PEM) that signed the members' certificates")
	fs.StringVar(&e.user, "etcd-user", "", "log in as etcd user `NAME`; the password is read from $"+etcdPasswordEnv)
}

// load reads the configuration file, if -config names one (its
// storage.backend need not be etcd: only [storage.etcd] is used), and
// refuses an empty -prefix given explicitly.
func (e *etcdFlags) load() error {
	empty := false
	e.fs.Visit(func(f *flag.Flag) { empty = empty || f.Name == "prefix" && f.Value.String() == "" })
	if empty {
		return badInput("-prefix must not be empty")
	}
	if e.config == "" {
		return nil
	}
	cfg, err := loadConfig(e.config, nil)
	if err != nil {
		return err
	}
	e.cfg = &cfg.Storage.Etcd
	e.cfgBackend, e.cfgPath = cfg.Storage.Backend, cfg.Storage.Path
	return nil
}

// prefixOf returns the key prefix: -prefix, else the file's, else the
// default.
func (e *etcdFlags) prefixOf() string {
	switch {
	case e.prefix != "":
		return e.prefix
	case e.cfg != nil && e.cfg.Prefix != "":
		return e.cfg.Prefix
	}
	return etcdstore.DefaultPrefix
}

// options returns how to reach the cluster at endpoints (nil: the
// endpoints of -config's file). Flags win over the file; the password of
// -etcd-user comes from the environment, the file's with its username.
func (e *etcdFlags) options(a *app, flagName string, endpoints []string) (etcdstore.Options, error) {
	var c EtcdConfig
	if e.cfg != nil {
		c = *e.cfg
	}
	if len(endpoints) == 0 {
		if e.cfg == nil {
			return etcdstore.Options{}, badInput("%s etcd: names no member: give their URLs (etcd:URL[,URL...]) or -config FILE with storage.etcd.endpoints", flagName)
		}
		endpoints = c.Endpoints
	}
	if e.cert != "" {
		c.CertFile = e.cert
	}
	if e.key != "" {
		c.KeyFile = e.key
	}
	if e.ca != "" {
		c.CAFile = e.ca
	}
	if e.user != "" {
		c.Username, c.Password = e.user, a.getenv(etcdPasswordEnv)
		if c.Password == "" {
			return etcdstore.Options{}, badInput("-etcd-user %s: set the password in the environment variable %s", e.user, etcdPasswordEnv)
		}
	}
	if (c.CertFile == "") != (c.KeyFile == "") {
		return etcdstore.Options{}, badInput("-etcd-cert and -etcd-key go together (or the file's cert_file and key_file): give both or neither")
	}
	opts := etcdstore.Options{Endpoints: endpoints, Prefix: e.prefixOf(), DialTimeout: c.DialTimeout.D(),
		Username: c.Username, Password: c.Password}
	if opts.DialTimeout <= 0 {
		opts.DialTimeout = defaultEtcdConfig().DialTimeout.D()
	}
	c.Endpoints = endpoints
	if c.tlsOn() {
		tc, err := etcdstore.TLSConfig(c.CertFile, c.KeyFile, c.CAFile)
		if err != nil {
			return etcdstore.Options{}, badInput("etcd: %v", err)
		}
		opts.TLS = tc
	}
	return opts, nil
}

// joinEndpoints writes endpoints for messages.
func joinEndpoints(eps []string) string { return strings.Join(eps, ",") }
