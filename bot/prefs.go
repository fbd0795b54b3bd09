package bot

import "context"

// Preferences returns userID's settings (DefaultPreferences when they
// chose nothing). EINVALID for an empty user ID.
func (s *Service) Preferences(ctx context.Context, userID string) (*Preferences, error) {
	if userID == "" {
		return nil, Errorf(EINVALID, "Whose settings? No user given.")
	}
	return s.users.Preferences(ctx, userID)
}

// SetDelivery sets where userID's notifications go: DeliverDM,
// DeliverChannel or DeliverOff (EINVALID for anything else or an empty
// user ID), and returns the settings as stored.
func (s *Service) SetDelivery(ctx context.Context, userID string, d Delivery) (*Preferences, error) {
	if userID == "" {
		return nil, Errorf(EINVALID, "Whose settings? No user given.")
	}
	if d.String() == "unknown" {
		return nil, Errorf(EINVALID, "Notifications: choose dm, channel or off.")
	}
	return s.users.UpdatePreferences(ctx, userID, func(p *Preferences) error {
		p.Delivery = d
		return nil
	})
}

// SetReminder sets the share of a turn's time left, in percent, at which
// userID is reminded to move: 1 to 99, or 0 for no reminders (EINVALID
// for anything else or an empty user ID). It applies from the next sweep
// on, to turns already running too (a turn already reminded is not
// reminded again). It returns the settings as stored.
func (s *Service) SetReminder(ctx context.Context, userID string, percent int) (*Preferences, error) {
	if userID == "" {
		return nil, Errorf(EINVALID, "Whose settings? No user given.")
	}
	if percent < 0 || percent > 99 {
		return nil, Errorf(EINVALID, "Reminder: give the share of the time left in percent, 1 to 99, or 0 for none (not %d).", percent)
	}
	return s.users.UpdatePreferences(ctx, userID, func(p *Preferences) error {
		p.ReminderPercent = percent
		return nil
	})
}

// SetDMBlocked records whether direct messages to userID fail because the
// user does not accept them (adapters then write in the channel). Nothing
// is written when the stored flag already says so, so adapters may call
// it after every failed or successful direct message. EINVALID for an
// empty user ID.
func (s *Service) SetDMBlocked(ctx context.Context, userID string, blocked bool) error {
	if userID == "" {
		return Errorf(EINVALID, "Whose settings? No user given.")
	}
	p, err := s.users.Preferences(ctx, userID)
	if err != nil {
		return err
	}
	if p.DMBlocked == blocked {
		return nil
	}
	_, err = s.users.UpdatePreferences(ctx, userID, func(p *Preferences) error {
		p.DMBlocked = blocked
		return nil
	})
	return err
}
